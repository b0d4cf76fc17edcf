// Draws a state into the page. Every action is a real <button> whose accessible name says the card and what
// it does; new cards and changed numbers animate with CSS (≤ 250 ms) while the buttons are live at once.
import { playFor, weaponUsable } from "./rules";
import type { Card, Mode, Progress, State, Words } from "./types";

export interface Handlers {
  play(action: string, version: number): void;
  rules(): void;
  toggleMode(): void;
  hint(): void;
  review(): void;
  replay(): void;
  share(): void;
  newGame(kind: "normal" | "daily"): void;
}

const SUITS: Record<string, string> = { C: "♣", S: "♠", D: "♦", H: "♥", X: "★" };

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

export function button(label: string, name: string, onClick: () => void, cls = "action"): HTMLButtonElement {
  const node = el("button", { type: "button", class: cls, "aria-label": name }, label);
  node.addEventListener("click", onClick);
  return node;
}

function cardFace(card: Card, extra: string[] = []): HTMLElement {
  const red = card.suit === "H" || card.suit === "D";
  return el(
    "span",
    { class: ["face", card.kind, red ? "red" : "black", ...extra].join(" "), "aria-hidden": "true" },
    el("span", { class: "rank" }, card.rank),
    el("span", { class: "suit" }, SUITS[card.suit] ?? ""),
  );
}

export function render(root: HTMLElement, state: State, previous: State | null, mode: Mode, words: Words,
                       handlers: Handlers, note?: string): void {
  const focusedSlot = document.activeElement?.getAttribute("data-slot");
  const before = new Set((previous?.room ?? []).map((slot) => slot.card?.code));
  root.replaceChildren();
  root.setAttribute("aria-busy", "false");
  root.dataset.screen = "game";
  root.dataset.game = String(state.id); // (what the browser tests wait on)
  root.dataset.version = String(state.version);

  root.classList.toggle("over", state.over); // the end screen lays its kills out side by side
  const facts = el("p", { class: "facts" });
  if (!state.over) facts.append(`${words.room} ${state.room_number} · ${words.dungeon} ${state.dungeon}`);
  root.append(header(el("h1", {}, state.headline), facts, words, handlers));

  // health, weapon and its kills
  const share = Math.max(0, Math.min(1, state.health / state.max_health));
  const fill = el("span", { class: "fill" });
  fill.style.width = `${(share * 100).toFixed(1)}%`; // (CSSOM, not a style attribute: the CSP allows no inline style)
  const bar = el("div", { class: "bar" }, fill);
  const health = el("div", { class: "health", role: "img", "aria-label": `${words.health} ${state.health}/${state.max_health}` },
    el("span", { class: "label" }, `♥ ${state.health}/${state.max_health}`), bar);
  if (previous && previous.health !== state.health) health.classList.add(state.health < previous.health ? "hurt" : "healed");
  const weapon = el("div", { class: "weapon" });
  if (state.weapon) {
    const kills = state.kills.map((kill) => kill.label).join(" ");
    weapon.setAttribute("aria-label", `${words.weapon} ${state.weapon.label}${kills ? `; ${words.kills}: ${kills}` : ""}`);
    weapon.setAttribute("role", "img");
    weapon.append(cardFace(state.weapon, previous?.weapon?.code === state.weapon.code ? ["small"] : ["small", "enter"]));
    const row = el("span", { class: "kills" });
    state.kills.forEach((kill, i) => row.append(cardFace(kill, i === state.kills.length - 1 && previous?.kills.length !== state.kills.length ? ["tiny", "enter"] : ["tiny"])));
    weapon.append(row);
  } else {
    weapon.append(el("span", { class: "none" }, words.no_weapon));
  }
  root.append(el("section", { class: "stats" }, health, weapon));

  if (!state.over) {
    const room = el("section", { class: "room", "aria-label": words.room });
    for (const slot of state.room) {
      const play = playFor(slot, mode);
      if (slot.card === null || play === undefined) {
        room.append(el("button", { type: "button", class: "card empty", disabled: "", "aria-label": words.played }, ""));
        continue;
      }
      const fresh = !before.has(slot.card.code);
      const node = el("button", { type: "button", class: `card ${slot.card.kind}${fresh ? " enter" : ""}`,
        "aria-label": play.name, "data-slot": String(slot.slot), "aria-keyshortcuts": String(slot.slot + 1) },
        cardFace(slot.card), el("span", { class: "outcome", "aria-hidden": "true" }, play.short));
      const version = state.version;
      node.addEventListener("click", () => handlers.play(play.code, version));
      room.append(node);
    }
    root.append(room);
    root.append(events(state, note));

    const controls = el("div", { class: "controls" });
    const usable = weaponUsable(state);
    const toggle = button(mode === "weapon" && usable ? `⚔ ${words.fight_weapon}` : words.fight_bare,
      words.fight_mode_name, handlers.toggleMode, "action mode");
    toggle.setAttribute("aria-pressed", String(mode === "weapon" && usable));
    toggle.setAttribute("aria-keyshortcuts", "F");
    if (!usable) toggle.disabled = true;
    controls.append(toggle);
    const avoid = button(`↷ ${words.avoid}`, words.avoid_name, () => state.avoid && handlers.play(state.avoid.code, state.version));
    avoid.setAttribute("aria-keyshortcuts", "A");
    avoid.disabled = state.avoid === null;
    controls.append(avoid);
    if (state.hint) controls.append(button(`? ${words.hint}`, words.hint, handlers.hint));
    for (const choice of state.choices) {
      controls.append(button(choice.name, choice.name, () => handlers.play(choice.code, state.version)));
    }
    root.append(controls);
  } else {
    const end = el("section", { class: "end" });
    const final = el("div", { class: "final" }, el("span", {}, words.score), el("strong", {}, String(state.score ?? "—")));
    if (state.par_text !== null) final.append(el("p", { class: "par" }, state.par_text));
    end.append(final);
    const buttons = el("div", { class: "controls" });
    if (state.review) {
      buttons.append(button(words.review, words.review, handlers.review));
      buttons.append(button(`▶ ${words.replay}`, words.replay, handlers.replay));
    }
    if (state.share) buttons.append(button(`↗ ${words.share}`, words.share, handlers.share));
    buttons.append(button(`+ ${words.new_game}`, words.new_game, () => handlers.newGame("normal"), "action primary"));
    if (state.kind === "normal") buttons.append(button(`★ ${words.daily}`, words.daily, () => handlers.newGame("daily")));
    end.append(buttons);
    root.append(events(state, note), end);
  }
  root.append(el("p", { class: "keys" }, words.keys));

  if (focusedSlot !== null && focusedSlot !== undefined) {
    (root.querySelector(`[data-slot="${focusedSlot}"]`) as HTMLElement | null)?.focus();
  }
}

/** The screen's title and what stands under it, with the rules a tap away on every screen. */
export function header(title: HTMLElement, under: HTMLElement, words: Words, handlers: Pick<Handlers, "rules">): HTMLElement {
  const rules = button(`? ${words.rules}`, words.rules, handlers.rules, "action rules");
  return el("header", { class: "top" }, el("div", { class: "heading" }, title, under), rules);
}

function events(state: State, note?: string): HTMLElement {
  const told = [...(note ? [note] : []), ...state.events];
  return el("p", { class: "events", "aria-live": "polite" }, told.join(" · "));
}

/** A dialog over the table (a hint, a review, a replay, an error), closed with its button or Escape. */
export function showDialog(words: Words, ...content: (Node | string)[]): HTMLDialogElement {
  document.querySelector("dialog")?.remove();
  const close = el("button", { type: "button", class: "action primary" }, words.close ?? "Close");
  const dialog = el("dialog", { "aria-modal": "true" }, el("div", { class: "content" }, ...content), close);
  close.addEventListener("click", () => { dialog.close(); dialog.remove(); });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

/** A question over the table (a hint's cost, say): ``yes`` runs when its button is pressed. */
export function ask(words: Words, question: string, yesLabel: string, yes: () => void): HTMLDialogElement {
  const dialog = showDialog(words, question);
  const button = el("button", { type: "button", class: "action" }, yesLabel);
  button.addEventListener("click", () => { dialog.close(); dialog.remove(); yes(); });
  dialog.insertBefore(button, dialog.lastChild);
  return dialog;
}

/** A dialog saying how far a slow answer is, updated in place while it is open; null once the player closed it. */
export function showProgress(words: Words, shown: HTMLDialogElement | null, text: string, progress: Progress
): HTMLDialogElement | null {
  if (shown && (!shown.isConnected || !shown.open)) return null;
  const bar = el("progress", { max: String(Math.max(progress.total, 1)) });
  if (!progress.ahead && progress.total) bar.value = progress.done;  // no value: it waits (an indeterminate bar)
  const content = el("div", { class: "working", role: "status" }, el("p", {}, text), bar);
  if (shown) {
    shown.querySelector(".content")!.replaceChildren(content);
    return shown;
  }
  return showDialog(words, content);
}

/** Lines of text as paragraphs; the catalogues' **bold** and *italics* are drawn so (nothing else is markup). */
export function paragraphs(lines: string[], first = ""): HTMLElement {
  return el("div", {}, ...lines.map((line, i) => el("p", i === 0 && first ? { class: first } : {}, ...marked(line))));
}

export function marked(line: string): (Node | string)[] {
  const italic = (text: string) => text.split(/(?<![*\w])\*(?=\S)([^*]+?)\*(?![*\w])/).map(
    (part, i) => (i % 2 === 1 ? el("em", {}, part) : part));
  return line.split("**").flatMap((part, i) => (i % 2 === 1 ? [el("strong", {}, part)] : italic(part)));
}

/** A finished game's review: its verdict (the coach's last line) first, in view as the dialog opens. */
export function review(lines: string[]): HTMLElement {
  return paragraphs(lines.length > 1 ? [lines[lines.length - 1], ...lines.slice(0, -1)] : lines, "summary");
}

// The share grid's squares: one glyph each in the page's symbols font, coloured here (the font has no colours).
const SQUARES: Record<string, string> = { "🟩": "green", "🟨": "yellow", "🟧": "orange", "🟥": "red" };

/** The share text, shown when Discord cannot share it: its grid in colour. */
export function shareGrid(text: string): HTMLElement {
  return el("div", { class: "share" }, ...text.split("\n").map((line) => el("p", {}, ...[...line].map(
    (char) => (SQUARES[char] ? el("span", { class: `square ${SQUARES[char]}` }, char) : char)))));
}

export function picture(url: string, alt: string): HTMLElement {
  return el("img", { src: url, alt, class: "replay" });
}
