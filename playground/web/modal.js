// A form the bot opened (a modal), drawn as Discord's client draws it: the title, each text
// input with its label, limits and placeholder, then Cancel and Submit. The client checks
// the limits before it sends anything, as Discord's does; Cancel sends nothing at all.
import { el } from "./message.js";
import { escapeHtml } from "./markdown.js";

function problem(spec, value) {
  if (!value) return spec.required ? "This field is required" : "";
  if (value.length < spec.min_length) return `Must be at least ${spec.min_length} characters long`;
  return "";
}

export class Form {
  constructor(root, { submit }) {
    Object.assign(this, { root, submit });
    this.spec = null;
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.spec) this.close();
    });
  }

  open(spec) {
    this.spec = spec;
    this.root.innerHTML = "";
    const form = el("form", "modal");
    form.setAttribute("role", "dialog");
    form.setAttribute("aria-label", spec.title);
    form.noValidate = true; // the limits are checked below, with Discord's words
    const close = el("button", "modal-close", "×");
    close.type = "button";
    close.title = "Close";
    close.addEventListener("click", () => this.close());
    form.append(el("header", "modal-title", escapeHtml(spec.title)), close);
    const body = el("div", "modal-body");
    for (const input of spec.inputs) body.append(this.field(input));
    const cancel = el("button", "modal-cancel", "Cancel");
    cancel.type = "button";
    cancel.addEventListener("click", () => this.close());
    const send = el("button", "modal-submit", "Submit");
    send.type = "submit";
    const error = el("div", "modal-error");
    error.hidden = true;
    form.append(body, error, el("footer", "modal-footer"));
    form.querySelector(".modal-footer").append(cancel, send);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    this.root.append(form);
    this.root.hidden = false;
    form.querySelector("input, textarea")?.focus();
  }

  field(spec) {
    const box = el("div", "modal-field");
    box.dataset.customId = spec.custom_id;
    const star = spec.required ? '<span class="modal-required">*</span>' : "";
    box.append(el("label", "modal-label", `${escapeHtml(spec.label)}${star}`));
    if (spec.description) box.append(el("div", "modal-description", escapeHtml(spec.description)));
    const input = el(spec.paragraph ? "textarea" : "input", "modal-input");
    input.name = spec.custom_id;
    input.value = spec.value;
    input.placeholder = spec.placeholder;
    input.maxLength = spec.max_length;
    if (spec.min_length) input.minLength = spec.min_length;
    input.required = spec.required;
    input.addEventListener("input", () => this.mark(box, ""));
    const note = el("div", "modal-field-error");
    note.hidden = true;
    box.append(input, note);
    return box;
  }

  mark(box, text) {
    const note = box.querySelector(".modal-field-error");
    note.textContent = text;
    note.hidden = !text;
    box.classList.toggle("invalid", Boolean(text));
  }

  send() {
    const values = {};
    let ok = true;
    for (const box of this.root.querySelectorAll(".modal-field")) {
      const spec = this.spec.inputs.find((i) => i.custom_id === box.dataset.customId);
      const value = box.querySelector(".modal-input").value;
      values[spec.custom_id] = value;
      const wrong = problem(spec, value);
      this.mark(box, wrong);
      ok = ok && !wrong;
    }
    if (!ok) return;
    this.root.querySelector(".modal-submit").disabled = true;
    this.submit(this.spec.id, values);
  }

  // The bot's answer to the submission: the form closes, or says what went wrong.
  answered(error) {
    if (!this.spec) return;
    if (!error) return this.close();
    this.root.querySelector(".modal-submit").disabled = false;
    const box = this.root.querySelector(".modal-error");
    box.textContent = error;
    box.hidden = false;
  }

  close() {
    this.spec = null;
    this.root.hidden = true;
    this.root.innerHTML = "";
  }
}
