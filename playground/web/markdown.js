// Discord's message markdown, the part bots use: bold, italics, underline, strike, code,
// quotes, headings, subtext, lists, masked links, mentions, custom emojis, timestamps.
import { timestampHtml } from "./time.js";

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

export function emojiUrl(ctx, id, animated) {
  return `${ctx.cdn}/emojis/${id}.${animated ? "gif" : "png"}`;
}

// Discord's CDN is the emulator here: nothing is ever loaded from the internet.
export function localUrl(ctx, url) {
  if (!url) return "";
  return String(url).replace(/^https:\/\/(cdn|media)\.discordapp\.(com|net)/, ctx.cdn);
}

function token(ctx, raw) {
  let m;
  if ((m = raw.match(/^<(a?):(\w+):(\d+)>$/))) {
    const src = emojiUrl(ctx, m[3], m[1] === "a");
    return `<img class="emoji" alt=":${escapeHtml(m[2])}:" title=":${escapeHtml(m[2])}:" src="${src}">`;
  }
  if ((m = raw.match(/^<@!?(\d+)>$/))) {
    const user = ctx.users.get(m[1]);
    return `<span class="mention">@${escapeHtml(user ? user.name : "unknown-user")}</span>`;
  }
  if ((m = raw.match(/^<@&(\d+)>$/))) {
    const role = ctx.roles.get(m[1]);
    return `<span class="mention">@${escapeHtml(role ? role.name : "deleted-role")}</span>`;
  }
  if ((m = raw.match(/^<#(\d+)>$/))) {
    const channel = ctx.channels.get(m[1]);
    return `<span class="mention">#${escapeHtml(channel ? channel.name : "unknown")}</span>`;
  }
  if ((m = raw.match(/^<t:(-?\d+)(?::([tTdDfFR]))?>$/))) return timestampHtml(Number(m[1]), m[2] || "f");
  if (raw.startsWith("``")) return `<code>${escapeHtml(raw.replace(/^``|``$/g, ""))}</code>`;
  if (raw.startsWith("`")) return `<code>${escapeHtml(raw.slice(1, -1))}</code>`;
  return escapeHtml(raw);
}

const TOKENS = /``[^`]+``|`[^`\n]+`|<a?:\w+:\d+>|<@[!&]?\d+>|<#\d+>|<t:-?\d+(?::[tTdDfFR])?>/g;

function inline(ctx, text) {
  const saved = [];
  const held = text.replace(TOKENS, (raw) => `\u0000${saved.push(token(ctx, raw)) - 1}\u0000`);
  let html = escapeHtml(held)
    .replace(/\[([^\]\n]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2" target="_blank" rel="noreferrer">$1</a>')
    .replace(/\*\*\*(.+?)\*\*\*/g, "<strong><em>$1</em></strong>")
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/__(.+?)__/g, "<u>$1</u>")
    .replace(/(^|[^\w*])\*(?!\s)(.+?)\*(?!\w)/g, "$1<em>$2</em>")
    .replace(/(^|\W)_(.+?)_(?!\w)/g, "$1<em>$2</em>")
    .replace(/~~(.+?)~~/g, "<s>$1</s>")
    .replace(/\|\|(.+?)\|\|/g, '<span class="spoiler">$1</span>')
    .replace(/\\([*_~|`\\>#-])/g, "$1");
  return html.replace(/\u0000(\d+)\u0000/g, (_, i) => saved[Number(i)]);
}

function block(ctx, line) {
  let m;
  if ((m = line.match(/^(#{1,3}) (.*)$/))) return `<div class="h${m[1].length}">${inline(ctx, m[2])}</div>`;
  if ((m = line.match(/^-# (.*)$/))) return `<div class="subtext">${inline(ctx, m[1])}</div>`;
  if ((m = line.match(/^&gt; (.*)$|^> (.*)$/))) return `<div class="quote">${inline(ctx, m[1] ?? m[2])}</div>`;
  if ((m = line.match(/^(\s*)[-*] (.*)$/))) return `<div class="li" style="margin-left:${m[1].length / 2 + 1}em">${inline(ctx, m[2])}</div>`;
  return `<div class="line">${inline(ctx, line) || "&nbsp;"}</div>`;
}

export function markdown(ctx, text) {
  if (!text) return "";
  const parts = String(text).split(/```(?:\w*\n)?([\s\S]*?)```/);
  return parts
    .map((part, i) =>
      i % 2 ? `<pre>${escapeHtml(part)}</pre>` : part.split("\n").map((l) => block(ctx, l)).join(""),
    )
    .join("");
}
