import { describe, expect, it } from "vitest";
import { chooseLocale, keyAction, modeAfter, playFor, weaponUsable } from "./rules";
import type { Slot, State } from "./types";

const monster = { code: "S9", rank: "9", suit: "S", kind: "monster", label: "♠9", name: "monster ♠9" } as const;
const weaponCard = { code: "D5", rank: "5", suit: "D", kind: "weapon", label: "♦5", name: "weapon ♦5" } as const;
const withWeapon: Slot = {
  slot: 1, card: monster,
  weapon: { code: "W1", short: "−4", name: "Fight ♠9 with your weapon: −4" },
  take: { code: "T1", short: "−9", name: "Fight ♠9 barehanded: −9" },
};

function state(room: Slot[], weapon = null as State["weapon"]): State {
  return {
    id: 1, version: 0, kind: "normal", day: null, status: "playing", over: false, score: null, headline: "",
    events: [], room_number: 1, health: 20, max_health: 20, weapon, kills: [], dungeon: 40, room, avoid: null,
    choices: [], par: null, coach: null, par_text: null, hinted: false, hint: true, review: false, share: false,
  };
}

describe("playFor", () => {
  it("fights with the weapon in weapon mode and barehanded otherwise", () => {
    expect(playFor(withWeapon, "weapon")?.code).toBe("W1");
    expect(playFor(withWeapon, "bare")?.code).toBe("T1");
  });
  it("takes a card the weapon cannot fight, whatever the mode", () => {
    const bare: Slot = { slot: 0, card: monster, take: withWeapon.take };
    expect(playFor(bare, "weapon")?.code).toBe("T1");
  });
  it("has nothing to play on an empty place", () => {
    expect(playFor({ slot: 2, card: null }, "weapon")).toBeUndefined();
  });
});

describe("the fight mode", () => {
  it("is offered only when the weapon can fight a monster of the room", () => {
    expect(weaponUsable(state([withWeapon]))).toBe(true);
    expect(weaponUsable(state([{ slot: 0, card: monster, take: withWeapon.take }]))).toBe(false);
  });
  it("turns to the weapon when one is equipped, and otherwise keeps the player's choice", () => {
    expect(modeAfter(state([]), state([], weaponCard), "bare")).toBe("weapon");
    expect(modeAfter(state([], weaponCard), state([], weaponCard), "bare")).toBe("bare");
  });
});

describe("keys", () => {
  it("maps 1–4 to the room's places, A to avoid and F to the fight mode", () => {
    expect(keyAction("1")).toEqual({ kind: "slot", slot: 0 });
    expect(keyAction("4")).toEqual({ kind: "slot", slot: 3 });
    expect(keyAction("a")).toEqual({ kind: "avoid" });
    expect(keyAction("F")).toEqual({ kind: "mode" });
    expect(keyAction("5")).toBeNull();
    expect(keyAction("Enter")).toBeNull();
  });
});

describe("the language", () => {
  it("is the SDK's first, then the page's, then the browser's", () => {
    expect(chooseLocale("de", "?locale=fr", "es-ES")).toBe("de");
    expect(chooseLocale(undefined, "?locale=fr", "es-ES")).toBe("fr");
    expect(chooseLocale("", "", "es-ES")).toBe("es-ES");
    expect(chooseLocale(undefined, "?locale=<script>", undefined)).toBe("en-US");
  });
});
