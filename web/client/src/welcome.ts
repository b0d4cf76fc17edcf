// The first screen of a player with no game at the table: what Scoundrel is, how a turn goes in one line, the
// rules a tap away, and the two ways to start (a game of their own, or today's daily that everyone plays).
import type { Words } from "./types";
import { button, el, header, type Handlers } from "./view";

export function welcome(root: HTMLElement, words: Words, daily: boolean,
                        handlers: Pick<Handlers, "rules" | "newGame">): void {
  root.replaceChildren();
  root.setAttribute("aria-busy", "false");
  root.classList.remove("over");
  root.dataset.screen = "welcome"; // (what the browser tests wait on)
  delete root.dataset.game;
  delete root.dataset.version;
  root.append(header(el("h1", {}, words.title), el("p", { class: "facts" }, words.tagline), words, handlers));
  const suits = el("p", { class: "suits", "aria-hidden": "true" },
    el("span", { class: "black" }, "♠ ♣"), " ", el("span", { class: "red" }, "♦ ♥"));
  root.append(el("section", { class: "welcome" }, suits, el("p", { class: "how" }, words.how_to_play)));
  const start = el("div", { class: "controls" });
  start.append(button(`+ ${words.new_game}`, words.new_game, () => handlers.newGame("normal"), "action primary"));
  if (daily) start.append(button(`★ ${words.daily}`, words.daily, () => handlers.newGame("daily")));
  if (daily) start.append(el("p", { class: "note" }, words.daily_note));
  root.append(start);
}
