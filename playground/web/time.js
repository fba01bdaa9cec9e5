// Discord's timestamp styles (<t:unix:X>), the relative ones kept live.
const SECOND = 1000;
const UNITS = [
  ["year", 365 * 86400],
  ["month", 30 * 86400],
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

export function relative(ms) {
  const delta = Math.round((ms - Date.now()) / SECOND);
  const size = Math.abs(delta);
  for (const [unit, seconds] of UNITS) {
    if (size >= seconds || unit === "second") {
      const n = Math.floor(size / seconds);
      const words = `${n} ${unit}${n === 1 ? "" : "s"}`;
      return delta >= 0 ? `in ${words}` : `${words} ago`;
    }
  }
  return "now";
}

const FORMATS = {
  t: { hour: "numeric", minute: "2-digit" },
  T: { hour: "numeric", minute: "2-digit", second: "2-digit" },
  d: { day: "2-digit", month: "2-digit", year: "numeric" },
  D: { day: "numeric", month: "long", year: "numeric" },
  f: { day: "numeric", month: "long", year: "numeric", hour: "numeric", minute: "2-digit" },
  F: { weekday: "long", day: "numeric", month: "long", year: "numeric", hour: "numeric", minute: "2-digit" },
};

export function formatTimestamp(ms, style) {
  if (style === "R") return relative(ms);
  return new Date(ms).toLocaleString(undefined, FORMATS[style] || FORMATS.f);
}

export function timestampHtml(unix, style) {
  const ms = unix * SECOND;
  const full = new Date(ms).toLocaleString(undefined, FORMATS.F);
  return `<time class="ts" data-ms="${ms}" data-style="${style}" title="${full}">${formatTimestamp(ms, style)}</time>`;
}

export function messageTime(ms) {
  const when = new Date(ms);
  const time = when.toLocaleTimeString(undefined, FORMATS.t);
  const today = new Date().toDateString() === when.toDateString();
  return today ? `Today at ${time}` : `${when.toLocaleDateString()} ${time}`;
}

export function keepRelativeTimesLive(root) {
  setInterval(() => {
    for (const el of root.querySelectorAll('time.ts[data-style="R"]')) {
      el.textContent = relative(Number(el.dataset.ms));
    }
  }, SECOND);
}
