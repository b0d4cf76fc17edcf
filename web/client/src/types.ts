// The JSON the server sends (web/table.py and web/routes.py): the client draws it and nothing more.

export interface Card {
  code: string;
  rank: string;
  suit: "C" | "S" | "D" | "H" | "X";
  kind: string;
  label: string;
  name: string; // what a screen reader says: "monster ♠9"
}

export interface Play {
  code: string; // the engine's action code: T2, W1…
  short: string; // "−5", "+4", "equip"
  name: string; // the button's accessible name: "Fight ♠9 with your weapon: −5"
}

export interface Slot {
  slot: number;
  card: Card | null;
  weapon?: Play;
  take?: Play;
}

export interface Choice {
  code: string;
  name: string;
}

export interface State {
  id: number;
  version: number;
  kind: "normal" | "daily" | "practice";
  day: number | null;
  status: string;
  over: boolean;
  score: number | null;
  headline: string;
  events: string[];
  room_number: number;
  health: number;
  max_health: number;
  weapon: Card | null;
  kills: Card[];
  dungeon: number;
  room: Slot[];
  avoid: { code: string } | null;
  choices: Choice[];
  par: number | null;
  coach: number | null; // a daily's coach score, beside par once its day is over
  par_text: string | null; // par (and the coach) as the player reads them
  hinted: boolean;
  hint: boolean;
  review: boolean;
  share: boolean;
}

export type Words = Record<string, string>;

export type Mode = "weapon" | "bare";

/** How far a slow answer is (a review): jobs ahead of it in the solver's queue, then the moves judged so far. */
export interface Progress {
  ahead: number;
  done: number;
  total: number;
}
