// The message box: plain chat, or a slash command completed from the commands the bot
// registered (subcommands, then options as `name:value`, then each option's values).
import { escapeHtml } from "./markdown.js";

const SUB_COMMAND = 1;
const GROUP = 2;
const TYPE_WORDS = { 3: "text", 4: "a whole number", 5: "True or False", 6: "a member", 7: "a channel", 8: "a role", 9: "a member or role", 10: "a number" };

export function leaves(commands) {
  const found = [];
  const walk = (node, path) => {
    const subs = (node.options || []).filter((o) => o.type === SUB_COMMAND || o.type === GROUP);
    if (!subs.length) return found.push({ path, description: node.description || "", options: node.options || [] });
    for (const sub of subs) walk(sub, `${path} ${sub.name}`);
  };
  for (const command of commands) if ((command.type ?? 1) === 1) walk(command, command.name);
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

// Split "/uno duo opponent:bob ta" into the command, the options given and the word typed.
export function parse(text, known) {
  const body = text.slice(1);
  const leaf = known
    .filter((l) => body === l.path || body.startsWith(`${l.path} `))
    .sort((a, b) => b.path.length - a.path.length)[0];
  if (!leaf) return { leaf: null, current: text };
  const words = body.slice(leaf.path.length).replace(/^ /, "").split(/\s+/);
  const current = words.pop() ?? "";
  const given = {};
  for (const word of words) {
    const at = word.indexOf(":");
    if (at > 0) given[word.slice(0, at)] = word.slice(at + 1);
  }
  return { leaf, given, current };
}

// What Discord's client says of a command it does not know: the ones the typed words
// lead to, named (the list of suggestions closes once nothing matches).
export function unknownCommand(text, known) {
  const words = text.slice(1).trim().split(/\s+/);
  const named = (found) => found.map((l) => `/${l.path}`).join(", ");
  for (let n = words.length; n > 0; n -= 1) {
    const stem = words.slice(0, n).join(" ");
    const near = known.filter((l) => l.path.startsWith(`${stem} `));
    if (near.length && n === words.length) return `Choose one of ${named(near)}.`;
    if (near.length) return `/${words.join(" ")} is not a command. Choose one of ${named(near)}.`;
  }
  if (!known.length) return "The bot has no commands here yet.";
  return `/${words.join(" ")} is not a command. Choose one of ${named(known)}.`;
}

function valueSuggestions(spec, partial, ctx) {
  const prefix = `${spec.name}:`;
  const match = (s) => s.toLowerCase().startsWith(partial.toLowerCase());
  if (spec.choices) {
    return spec.choices
      .filter((c) => match(String(c.name)) || match(String(c.value)))
      .map((c) => ({ html: escapeHtml(c.name), insert: `${prefix}${c.value}` }));
  }
  if (spec.type === 6 || spec.type === 9) {
    // Discord lists every member the option may name, the bot (an app) among them.
    return [...ctx.members, ...(ctx.bot ? [ctx.bot] : [])]
      .filter((m) => match(m.name))
      .map((m) => ({ html: `@${escapeHtml(m.name)}`, insert: `${prefix}${m.name}` }));
  }
  if (spec.type === 7) {
    return ctx.channelList.filter((c) => match(c.name)).map((c) => ({ html: `#${escapeHtml(c.name)}`, insert: `${prefix}${c.name}` }));
  }
  if (spec.type === 5) return ["True", "False"].filter(match).map((v) => ({ html: v, insert: `${prefix}${v}` }));
  let words = TYPE_WORDS[spec.type] || "a value";
  if (spec.min_value !== undefined || spec.max_value !== undefined) words += ` from ${spec.min_value ?? "…"} to ${spec.max_value ?? "…"}`;
  return [{ html: `<span class="hint">${escapeHtml(spec.name)}: ${escapeHtml(words)}</span>`, insert: null }];
}

export function suggestions(text, known, ctx) {
  const parsed = parse(text, known);
  if (!parsed.leaf) {
    const typed = text.slice(1).toLowerCase();
    return known
      .filter((l) => l.path.startsWith(typed))
      .map((l) => ({
        html: `<span class="command-name">/${escapeHtml(l.path)}</span><span class="description">${escapeHtml(l.description)}</span>`,
        insert: `/${l.path} `,
        whole: true,
      }));
  }
  const { leaf, given, current } = parsed;
  const at = current.indexOf(":");
  if (at > 0) {
    const spec = leaf.options.find((o) => o.name === current.slice(0, at));
    return spec ? valueSuggestions(spec, current.slice(at + 1), ctx) : [];
  }
  return leaf.options
    .filter((o) => !(o.name in given) && o.name.startsWith(current))
    .sort((a, b) => Number(Boolean(b.required)) - Number(Boolean(a.required)))
    .map((o) => ({
      html: `<span class="option-name">${escapeHtml(o.name)}</span>${o.required ? '<span class="required">required</span>' : ""}<span class="description">${escapeHtml(o.description || "")}</span>`,
      insert: `${o.name}:`,
    }));
}

export class Composer {
  constructor({ input, list, error, ctx, send }) {
    Object.assign(this, { input, list, error, ctx, send });
    this.known = [];
    this.items = [];
    this.active = 0;
    input.addEventListener("input", () => this.refresh());
    input.addEventListener("keydown", (event) => this.key(event));
    input.addEventListener("blur", () => setTimeout(() => this.close(), 150));
  }

  setCommands(commands) {
    this.known = leaves(commands);
    this.refresh();
  }

  showError(text) {
    this.error.textContent = text || "";
    this.error.hidden = !text;
  }

  close() {
    this.items = [];
    this.list.hidden = true;
  }

  refresh() {
    this.showError("");
    const text = this.input.value;
    this.items = text.startsWith("/") ? suggestions(text, this.known, this.ctx) : [];
    this.active = Math.max(0, this.items.findIndex((i) => i.insert !== null));
    this.draw();
  }

  draw() {
    this.list.innerHTML = "";
    this.list.hidden = !this.items.length;
    if (!this.items.length) return;
    const title = document.createElement("div");
    title.className = "suggestions-title";
    title.textContent = this.items[0].whole ? "UnoBot" : "Options";
    this.list.append(title);
    this.items.forEach((item, i) => {
      const row = document.createElement("div");
      row.className = `suggestion${i === this.active && item.insert !== null ? " active" : ""}`;
      row.innerHTML = item.html;
      row.addEventListener("mousedown", (event) => {
        event.preventDefault();
        this.pick(item);
      });
      this.list.append(row);
    });
  }

  pick(item) {
    if (!item || item.insert === null) return;
    if (item.whole) {
      this.input.value = item.insert;
    } else {
      const text = this.input.value;
      let base = text.slice(0, text.length - parse(text, this.known).current.length);
      if (!/\s$/.test(base)) base += " ";
      this.input.value = base + item.insert + (item.insert.endsWith(":") ? "" : " ");
    }
    this.input.focus();
    this.refresh();
  }

  // Enter completes the word being typed; on a finished word it sends the command.
  wantsPick() {
    const item = this.items[this.active];
    if (!item || item.insert === null) return false;
    const current = item.whole ? this.input.value : parse(this.input.value, this.known).current;
    return current !== "" && current.trim() !== item.insert.trim();
  }

  key(event) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!this.items.length) return;
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      this.active = (this.active + step + this.items.length) % this.items.length;
      this.draw();
    } else if (event.key === "Tab" && this.items.length) {
      event.preventDefault();
      this.pick(this.items[this.active]);
    } else if (event.key === "Escape") {
      this.close();
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (this.wantsPick()) return this.pick(this.items[this.active]);
      this.submit();
    }
  }

  submit() {
    const text = this.input.value.trim();
    if (!text) return;
    if (!text.startsWith("/")) {
      this.send({ t: "say", content: text });
      this.input.value = "";
      return this.refresh();
    }
    const parsed = parse(text, this.known);
    if (!parsed.leaf) return this.showError(unknownCommand(text, this.known));
    const options = { ...parsed.given };
    const at = parsed.current.indexOf(":");
    if (at > 0) options[parsed.current.slice(0, at)] = parsed.current.slice(at + 1);
    const missing = parsed.leaf.options.filter((o) => o.required && !(o.name in options));
    if (missing.length) return this.showError(`Fill in ${missing.map((o) => o.name).join(", ")}.`);
    const problem = parsed.leaf.options.map((o) => (o.name in options ? invalid(o, options[o.name]) : "")).find(Boolean);
    if (problem) return this.showError(problem);
    this.send({ t: "slash", command: parsed.leaf.path, options });
    this.lastCommand = text;
    this.input.value = "";
    this.refresh();
  }

  // The bot refused it before it ran (the client's own checks): give the text back.
  refused(text) {
    if (!this.input.value && this.lastCommand) this.input.value = this.lastCommand;
    this.refresh();
    this.showError(text);
  }
}

// What Discord's client itself says before sending a number out of range.
function invalid(spec, value) {
  if (spec.type !== 4 && spec.type !== 10) return "";
  const number = Number(value);
  if (value === "" || Number.isNaN(number) || (spec.type === 4 && !Number.isInteger(number))) {
    return `${spec.name} must be ${spec.type === 4 ? "a whole number" : "a number"}.`;
  }
  const low = spec.min_value ?? -Infinity;
  const high = spec.max_value ?? Infinity;
  if (number < low || number > high) return `${spec.name} must be between ${spec.min_value} and ${spec.max_value}.`;
  return "";
}
