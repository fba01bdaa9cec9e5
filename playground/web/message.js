// One message as Discord draws it: author line, content, embeds, buttons and selects.
import { escapeHtml, markdown, emojiUrl, localUrl } from "./markdown.js";
import { messageTime } from "./time.js";

const BUTTON_STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium" };
const AVATAR_COLOURS = ["#5865f2", "#757e8a", "#3ba55c", "#faa61a", "#ed4245"];

export function avatar(user) {
  // By name, so a member keeps their colour from one playground to the next.
  const index = [...user.name].reduce((sum, c) => sum + c.charCodeAt(0), 0) % AVATAR_COLOURS.length;
  const colour = user.bot ? AVATAR_COLOURS[0] : AVATAR_COLOURS[index];
  const el = document.createElement("div");
  el.className = "avatar";
  el.style.background = colour;
  el.textContent = user.bot ? "🃏" : user.name.slice(0, 1).toUpperCase();
  return el;
}

export function el(tag, className, html) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (html !== undefined) node.innerHTML = html;
  return node;
}

function emojiHtml(ctx, emoji) {
  if (!emoji) return "";
  if (emoji.id) {
    return `<img class="emoji" alt=":${escapeHtml(emoji.name || "")}:" src="${emojiUrl(ctx, emoji.id, emoji.animated)}">`;
  }
  return `<span class="emoji-text">${escapeHtml(emoji.name || "")}</span>`;
}

function attachmentUrl(ctx, message, url) {
  if (url && url.startsWith("attachment://")) {
    const name = url.slice("attachment://".length);
    const found = message.attachments.find((a) => a.filename === name);
    return found ? found.url : "";
  }
  return localUrl(ctx, url);
}

// Inline fields share a row three at a time, as in Discord.
function fieldSpans(fields) {
  const spans = [];
  let run = [];
  const flush = () => {
    run.forEach((i) => (spans[i] = 12 / run.length));
    run = [];
  };
  fields.forEach((field, i) => {
    if (field.inline) {
      run.push(i);
      if (run.length === 3) flush();
    } else {
      flush();
      spans[i] = 12;
    }
  });
  flush();
  return spans;
}

function embed(ctx, message, data) {
  const box = el("div", "embed");
  if (data.color !== undefined && data.color !== null) {
    box.style.borderLeftColor = `#${Number(data.color).toString(16).padStart(6, "0")}`;
  }
  const body = el("div", "embed-body");
  if (data.author && data.author.name) {
    const icon = data.author.icon_url ? `<img src="${escapeHtml(attachmentUrl(ctx, message, data.author.icon_url))}">` : "";
    body.append(el("div", "embed-author", `${icon}${escapeHtml(data.author.name)}`));
  }
  if (data.title) body.append(el("div", "embed-title", markdown(ctx, data.title)));
  if (data.description) body.append(el("div", "embed-description", markdown(ctx, data.description)));
  if (data.fields && data.fields.length) {
    const grid = el("div", "embed-fields");
    const spans = fieldSpans(data.fields);
    data.fields.forEach((field, i) => {
      const cell = el("div", "embed-field");
      cell.style.gridColumn = `span ${spans[i]}`;
      cell.append(el("div", "embed-field-name", markdown(ctx, field.name)));
      cell.append(el("div", "embed-field-value", markdown(ctx, field.value)));
      grid.append(cell);
    });
    body.append(grid);
  }
  if (data.image && data.image.url) {
    const image = el("img", "embed-image");
    image.src = attachmentUrl(ctx, message, data.image.url);
    body.append(image);
  }
  if ((data.footer && data.footer.text) || data.timestamp) {
    const parts = [];
    if (data.footer && data.footer.text) parts.push(escapeHtml(data.footer.text));
    if (data.timestamp) parts.push(messageTime(Date.parse(data.timestamp)));
    const icon = data.footer && data.footer.icon_url ? `<img src="${escapeHtml(attachmentUrl(ctx, message, data.footer.icon_url))}">` : "";
    body.append(el("div", "embed-footer", `${icon}<span>${parts.join(" • ")}</span>`));
  }
  box.append(body);
  if (data.thumbnail && data.thumbnail.url) {
    const thumb = el("img", "embed-thumbnail");
    thumb.src = attachmentUrl(ctx, message, data.thumbnail.url);
    box.append(thumb);
  }
  return box;
}

function button(ctx, message, data, actions) {
  const node = el("button", `button ${BUTTON_STYLES[data.style] || "secondary"}`);
  node.type = "button";
  node.innerHTML = `${emojiHtml(ctx, data.emoji)}${data.label ? `<span class="label">${escapeHtml(data.label)}</span>` : ""}`;
  if (data.style === 5) node.innerHTML += '<span class="external">↗</span>';
  node.disabled = Boolean(data.disabled);
  if (data.custom_id) node.dataset.customId = data.custom_id;
  if (actions.isPending(message.id, data.custom_id)) node.classList.add("pending");
  node.addEventListener("click", () => {
    if (data.style === 5) return window.open(data.url, "_blank", "noreferrer");
    actions.click(message, data.custom_id);
  });
  return node;
}

function select(ctx, message, data, actions) {
  const box = el("div", "select");
  box.dataset.customId = data.custom_id || "";
  const options = data.options || [];
  const chosen = options.filter((o) => o.default);
  const shown = chosen.length
    ? chosen.map((o) => `${emojiHtml(ctx, o.emoji)}${escapeHtml(o.label)}`).join(", ")
    : `<span class="placeholder">${escapeHtml(data.placeholder || "Make a selection")}</span>`;
  const head = el("button", "select-head", `<span class="select-value">${shown}</span><span class="chevron">⌄</span>`);
  head.type = "button";
  head.disabled = Boolean(data.disabled) || data.type !== 3;
  if (actions.isPending(message.id, data.custom_id)) box.classList.add("pending");
  const menu = el("div", "select-menu");
  menu.hidden = true;
  const multiple = (data.max_values || 1) > 1;
  const picked = new Set(chosen.map((o) => o.value));
  for (const option of options) {
    const row = el("div", "select-option");
    row.dataset.value = option.value;
    const description = option.description ? `<div class="description">${escapeHtml(option.description)}</div>` : "";
    row.innerHTML = `${emojiHtml(ctx, option.emoji)}<div><div class="label">${escapeHtml(option.label)}</div>${description}</div>`;
    row.addEventListener("click", () => {
      if (!multiple) {
        menu.hidden = true;
        return actions.select(message, data.custom_id, [option.value]);
      }
      picked.has(option.value) ? picked.delete(option.value) : picked.add(option.value);
      row.classList.toggle("picked", picked.has(option.value));
    });
    row.classList.toggle("picked", picked.has(option.value));
    menu.append(row);
  }
  head.addEventListener("click", () => {
    const opening = menu.hidden;
    menu.hidden = !opening;
    if (!opening && multiple && picked.size >= (data.min_values ?? 1)) {
      actions.select(message, data.custom_id, [...picked]);
    }
  });
  box.append(head, menu);
  return box;
}

function components(ctx, message, rows, actions) {
  const box = el("div", "components");
  for (const row of rows) {
    const line = el("div", "action-row");
    for (const item of row.components || []) {
      line.append(item.type === 2 ? button(ctx, message, item, actions) : select(ctx, message, item, actions));
    }
    box.append(line);
  }
  return box;
}

function header(ctx, message) {
  const head = el("div", "message-head");
  const author = message.author;
  head.append(el("span", "author", escapeHtml(author.name)));
  if (author.bot) head.append(el("span", "app-tag", "APP"));
  head.append(el("span", "time", messageTime(message.timestamp)));
  return head;
}

function commandLine(message) {
  const line = el("div", "command-line");
  const who = escapeHtml(message.command.user.name);
  line.innerHTML = `<span class="reply-spine"></span><span class="mention">@${who}</span> used <span class="command-name">${escapeHtml(message.command.name)}</span>`;
  return line;
}

function ephemeralNote(message, actions) {
  const note = el("div", "ephemeral-note", '<span class="eye">👁</span> Only you can see this • ');
  const dismiss = el("a", "dismiss", "Dismiss message");
  dismiss.href = "#";
  dismiss.addEventListener("click", (event) => {
    event.preventDefault();
    actions.dismiss(message.id);
  });
  note.append(dismiss);
  return note;
}

export function renderMessage(ctx, message, { grouped, actions }) {
  const node = el("article", "message");
  node.id = `message-${message.id}`;
  node.dataset.id = message.id;
  node.dataset.author = message.author.id;
  node.dataset.edits = message.edits; // which version of the message this is
  node.classList.toggle("ephemeral", message.ephemeral);
  node.classList.toggle("grouped", grouped && !message.command);
  if (message.command) node.append(commandLine(message));
  const row = el("div", "message-row");
  const gutter = el("div", "gutter");
  if (!node.classList.contains("grouped")) gutter.append(avatar(message.author));
  const main = el("div", "message-main");
  if (!node.classList.contains("grouped")) main.append(header(ctx, message));
  if (message.loading) {
    main.append(el("div", "thinking", `${escapeHtml(message.author.name)} is thinking<span class="dots"></span>`));
  } else {
    const content = el("div", "content", markdown(ctx, message.content));
    if (message.edited) (content.lastElementChild || content).append(el("span", "edited", " (edited)"));
    if (message.content) main.append(content);
    for (const data of message.embeds) main.append(embed(ctx, message, data));
    for (const file of message.attachments) {
      if (!(file.content_type || "").startsWith("image/")) continue;
      const image = el("img", "attachment");
      image.src = file.url;
      main.append(image);
    }
    if (message.components.length) main.append(components(ctx, message, message.components, actions));
  }
  const failure = actions.failure(message.id);
  if (failure) main.append(el("div", "failed", escapeHtml(failure)));
  if (message.ephemeral) main.append(ephemeralNote(message, actions));
  row.append(gutter, main);
  node.append(row);
  return node;
}
