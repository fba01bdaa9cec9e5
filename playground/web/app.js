// The page: connect as the member in `?as=`, keep the channel's messages live, act.
import { renderMessage, avatar, el } from "./message.js";
import { escapeHtml } from "./markdown.js";
import { Composer } from "./composer.js";
import { Form } from "./modal.js";
import { keepRelativeTimesLive } from "./time.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const GROUP_MS = 7 * 60 * 1000;

const state = {
  me: null,
  guild: null,
  current: null,
  messages: new Map(),
  pending: new Map(),
  failures: new Map(),
  dismissed: new Set(),
  unread: new Set(),
  nonce: 0,
  socket: null,
  generation: 0,
};
const ctx = { cdn: "", bot: null, users: new Map(), roles: new Map(), channels: new Map(), members: [], channelList: [] };

const actions = {
  click: (message, customId) => act(message, customId, { t: "click", custom_id: customId }),
  select: (message, customId, values) => act(message, customId, { t: "select", custom_id: customId, values }),
  dismiss(id) {
    state.dismissed.add(id);
    $(`message-${id}`)?.remove();
  },
  isPending: (id, customId) => [...state.pending.values()].some((p) => p.messageId === id && p.customId === customId),
  failure: (id) => state.failures.get(id),
};

function send(frame) {
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) return false;
  state.nonce += 1;
  state.socket.send(JSON.stringify({ ...frame, nonce: state.nonce }));
  return state.nonce;
}

function act(message, customId, frame) {
  state.failures.delete(message.id);
  const nonce = send({ ...frame, message_id: message.id });
  if (nonce) state.pending.set(nonce, { messageId: message.id, customId });
  document.body.dataset.pending = state.pending.size;
  redraw(message.id);
}

const composer = new Composer({
  input: $("input"),
  list: $("suggestions"),
  error: $("composer-error"),
  ctx,
  send: (frame) => {
    const nonce = send({ ...frame, channel_id: state.current });
    if (nonce && frame.t === "slash") state.pending.set(nonce, { slash: true });
    document.body.dataset.pending = state.pending.size;
    // As in Discord, what you send takes you to the newest message, where its answer lands.
    const box = $("messages");
    box.scrollTop = box.scrollHeight;
  },
});

const form = new Form($("modal-root"), {
  submit: (id, values) => {
    const nonce = send({ t: "submit", modal_id: id, values });
    if (nonce) state.pending.set(nonce, { form: true });
    document.body.dataset.pending = state.pending.size;
  },
});

// -- the socket ----------------------------------------------------------------------------

function connect() {
  const generation = ++state.generation;
  const who = encodeURIComponent(params.get("as") || "");
  const socket = new WebSocket(`ws://${location.host}/ws?as=${who}`);
  state.socket = socket;
  document.body.classList.add("connecting");
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    if (generation !== state.generation) return;
    document.body.classList.add("connecting");
    setTimeout(connect, 1000);
  };
}

function receive(frame) {
  // A count of what arrived, for a script driving the page to wait for news.
  document.body.dataset.frames = Number(document.body.dataset.frames || 0) + 1;
  switch (frame.t) {
    case "hello":
      return hello(frame);
    case "commands":
      return composer.setCommands(frame.commands);
    case "channels":
      ctx.channels = new Map(frame.channels.map((c) => [c.id, c]));
      ctx.channelList = frame.channels;
      return drawChannels();
    case "message":
      return upsert(frame.m);
    case "delete":
      state.messages.delete(frame.id);
      $(`message-${frame.id}`)?.remove();
      return;
    case "ack":
      return acknowledged(frame);
  }
}

function acknowledged(frame) {
  const pending = state.pending.get(frame.nonce);
  state.pending.delete(frame.nonce);
  document.body.dataset.pending = state.pending.size;
  if (!pending) return;
  if (pending.form) return form.answered(frame.error || (frame.failed ? "Something went wrong. Try again." : ""));
  if (frame.modal) form.open(frame.modal);
  if (pending.slash) {
    if (frame.error) composer.refused(frame.error);
    else if (frame.failed) composer.showError("The application did not respond.");
    return;
  }
  if (frame.error) state.failures.set(pending.messageId, frame.error);
  else if (frame.failed) state.failures.set(pending.messageId, "This interaction failed");
  redraw(pending.messageId);
}

// -- the server, its channels and members ---------------------------------------------------

function hello(frame) {
  Object.assign(state, { me: frame.me, guild: frame.guild, messages: new Map(), pending: new Map(), failures: new Map() });
  ctx.cdn = frame.cdn;
  ctx.bot = frame.bot;
  ctx.users = new Map([frame.bot, ...frame.members].map((u) => [u.id, u]));
  ctx.roles = new Map(frame.roles.map((r) => [r.id, r]));
  ctx.channels = new Map(frame.channels.map((c) => [c.id, c]));
  ctx.members = frame.members;
  ctx.channelList = frame.channels;
  $("guild-name").textContent = frame.guild.name;
  $("server-icon").textContent = frame.guild.name.slice(0, 1);
  $("server-icon").title = frame.guild.name;
  const wanted = frame.channels.find((c) => c.name === params.get("channel"));
  drawMe();
  drawMembers(frame);
  show((wanted || frame.channels[0]).id);
  document.body.classList.remove("connecting");
}

function drawMe() {
  const panel = $("me");
  panel.innerHTML = "";
  panel.append(avatar(state.me), el("div", "me-name", `<div>${escapeHtml(state.me.name)}</div><div class="me-sub">Switch member ▾</div>`));
}

function drawMembers(frame) {
  const list = $("members");
  list.innerHTML = `<div class="members-title">MEMBERS — ${frame.members.length + 1}</div>`;
  for (const user of [...frame.members, frame.bot]) {
    const row = el("div", `member${user.id === state.me.id ? " me" : ""}`);
    row.dataset.name = user.name;
    const crown = user.id === frame.guild.owner ? '<span class="crown" title="Server Owner">👑</span>' : "";
    const tag = user.bot ? '<span class="app-tag">APP</span>' : "";
    row.append(avatar(user), el("span", "member-name", `${escapeHtml(user.name)}${crown}${tag}`));
    if (!user.bot) row.addEventListener("click", () => switchTo(user.name));
    list.append(row);
  }
  const menu = $("switcher");
  menu.innerHTML = '<div class="switcher-title">Play as</div>';
  for (const user of frame.members) {
    const row = el("div", `switch-row${user.id === state.me.id ? " me" : ""}`);
    row.dataset.name = user.name;
    const link = new URL(location.href);
    link.searchParams.set("as", user.name);
    row.append(avatar(user), el("span", "member-name", escapeHtml(user.name)));
    const tab = el("a", "new-tab", "↗");
    tab.href = link.href;
    tab.target = "_blank";
    tab.title = `Open ${user.name} in a new tab`;
    tab.addEventListener("click", (event) => event.stopPropagation());
    row.append(tab);
    row.addEventListener("click", () => switchTo(user.name));
    menu.append(row);
  }
}

function switchTo(name) {
  $("switcher").hidden = true;
  if (state.me && name === state.me.name) return;
  params.set("as", name);
  history.replaceState(null, "", `?${params}`);
  state.socket?.close();
  connect();
}

function drawChannels() {
  const list = $("channels");
  list.innerHTML = '<div class="category">TEXT CHANNELS</div>';
  for (const channel of ctx.channelList) {
    const row = el("div", `channel${channel.parent ? " thread" : ""}`);
    row.dataset.name = channel.name;
    row.innerHTML = `<span class="hash">${channel.parent ? "└" : "#"}</span><span>${escapeHtml(channel.name)}</span>`;
    row.classList.toggle("active", channel.id === state.current);
    row.classList.toggle("unread", state.unread.has(channel.id));
    row.addEventListener("click", () => show(channel.id));
    list.append(row);
  }
}

function show(channelId) {
  state.current = channelId;
  state.unread.delete(channelId);
  const channel = ctx.channels.get(channelId);
  params.set("channel", channel.name);
  history.replaceState(null, "", `?${params}`);
  document.title = `${state.me.name} · #${channel.name} · ${state.guild.name}`;
  $("channel-name").textContent = channel.name;
  $("input").placeholder = `Message ${channel.parent ? "" : "#"}${channel.name}`;
  drawChannels();
  const box = $("messages");
  box.innerHTML = "";
  for (const id of order()) draw(id);
  box.scrollTop = box.scrollHeight;
}

// -- messages --------------------------------------------------------------------------------

function order() {
  return [...state.messages.values()]
    .filter((m) => m.channel_id === state.current && !state.dismissed.has(m.id))
    .map((m) => m.id)
    .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
}

function upsert(message) {
  const known = state.messages.has(message.id);
  state.messages.set(message.id, message);
  if (message.channel_id !== state.current) {
    if (!known) state.unread.add(message.channel_id);
    return drawChannels();
  }
  redraw(message.id);
}

function redraw(id) {
  if (!state.messages.has(id) || state.messages.get(id).channel_id !== state.current) return;
  const box = $("messages");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 120;
  const ids = order();
  const at = ids.indexOf(id);
  // A new message may change how the next one is grouped; an edit, a click or its answer
  // changes no author, time or visibility, so the next one (it may be the table, whose
  // buttons someone is about to press) is left as it is, as Discord's client does.
  const isNew = !$(`message-${id}`);
  draw(id, ids);
  if (isNew && at >= 0 && at + 1 < ids.length) draw(ids[at + 1], ids);
  if (atBottom) box.scrollTop = box.scrollHeight;
}

function draw(id, ids = order()) {
  const message = state.messages.get(id);
  const at = ids.indexOf(id);
  if (!message || at < 0) return;
  const before = at > 0 ? state.messages.get(ids[at - 1]) : null;
  const grouped = Boolean(
    before && before.author.id === message.author.id && !before.command && before.ephemeral === message.ephemeral && message.timestamp - before.timestamp < GROUP_MS,
  );
  const node = renderMessage(ctx, message, { grouped, actions });
  const old = $(`message-${id}`);
  if (old) return old.replaceWith(node);
  const next = ids.slice(at + 1).map((i) => $(`message-${i}`)).find(Boolean);
  $("messages").insertBefore(node, next || null);
}

// -- start -----------------------------------------------------------------------------------

$("me").addEventListener("click", () => ($("switcher").hidden = !$("switcher").hidden));
document.addEventListener("click", (event) => {
  if (!event.target.closest(".select")) document.querySelectorAll(".select-menu").forEach((m) => (m.hidden = true));
  if (!event.target.closest("#switcher, #me")) $("switcher").hidden = true;
});
$("composer").addEventListener("submit", (event) => event.preventDefault());
// An emoji the CDN doesn't have reads as its name, as Discord shows a missing one.
document.addEventListener(
  "error",
  (event) => {
    const image = event.target;
    if (image instanceof HTMLImageElement && image.classList.contains("emoji")) image.replaceWith(image.alt);
  },
  true,
);
keepRelativeTimesLive(document.body);
connect();
