// What a tap or a key does with the state shown: pure, so the unit tests read it without a page.
import type { Mode, Play, Slot, State } from "./types";

/** The way a room card is played in the fight mode chosen: a monster with the weapon when it can be. */
export function playFor(slot: Slot, mode: Mode): Play | undefined {
  if (slot.card === null) return undefined;
  if (mode === "weapon" && slot.weapon) return slot.weapon;
  return slot.take ?? slot.weapon;
}

/** Whether the weapon can fight any monster in the room (else the toggle is off). */
export function weaponUsable(state: State): boolean {
  return state.room.some((slot) => slot.weapon !== undefined);
}

/** The fight mode after a new state: a freshly equipped weapon is meant to be used, else the choice stays. */
export function modeAfter(previous: State | null, next: State, mode: Mode): Mode {
  if (next.weapon && (!previous || previous.weapon?.code !== next.weapon.code)) return "weapon";
  return mode;
}

export type KeyAction = { kind: "slot"; slot: number } | { kind: "avoid" } | { kind: "mode" };

/** Desktop keys: 1–4 play a room card, A avoids, F switches the fight mode. */
export function keyAction(key: string): KeyAction | null {
  if (key >= "1" && key <= "4" && key.length === 1) return { kind: "slot", slot: Number(key) - 1 };
  if (key === "a" || key === "A") return { kind: "avoid" };
  if (key === "f" || key === "F") return { kind: "mode" };
  return null;
}

/** The Discord locale to ask the server's words in: the SDK's, else the page's (?locale=), else the browser's. */
export function chooseLocale(sdkLocale: string | undefined, query: string, browser: string | undefined): string {
  const asked = new URLSearchParams(query).get("locale");
  for (const candidate of [sdkLocale, asked, browser]) {
    if (candidate && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(candidate)) return candidate;
  }
  return "en-US";
}
