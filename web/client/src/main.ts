// Opens the table: the Embedded App SDK inside Discord (DiscordSDKMock in a plain browser), the player's token
// from the server's code exchange, the words in the player's language, then the game.
import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
import { Api, ApiError } from "./api";
import { Game } from "./game";
import { chooseLocale, keyAction, playFor } from "./rules";
import { drawStrip, Follower } from "./together";
import "./style.css";
import type { State, Words } from "./types";
import { ask, el, paragraphs, picture, render, review, shareGrid, showDialog, showProgress } from "./view";
import { welcome } from "./welcome";

const root = document.getElementById("app") as HTMLElement;
const params = new URLSearchParams(location.search);
const inDiscord = params.has("frame_id");
let words: Words = { close: "Close", error: "Something went wrong; please try again." };

type Sdk = DiscordSDK | DiscordSDKMock;

async function connect(): Promise<{ sdk: Sdk; api: Api }> {
  const clientId = (document.querySelector('meta[name="client-id"]') as HTMLMetaElement | null)?.content ?? "0";
  const sdk: Sdk = inDiscord ? new DiscordSDK(clientId) : new DiscordSDKMock(clientId, null, null, null);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  let sdkLocale: string | undefined;
  const api = new Api("", "en-US");
  const token = await api.exchange(code);
  if (inDiscord) {
    await sdk.commands.authenticate({ access_token: token });
    api.instanceId = sdk.instanceId;
    sdkLocale = (await sdk.commands.userSettingsGetLocale()).locale || undefined;
  }
  api.locale = chooseLocale(sdkLocale, location.search, navigator.language);
  return { sdk, api };
}

function fail(error: unknown): void {
  const message = error instanceof ApiError ? error.message : words.error;
  showDialog(words, message);
}

async function main(): Promise<void> {
  const { sdk, api } = await connect();
  const me = await api.me();
  words = me.words;
  document.documentElement.lang = me.locale;
  document.title = words.title;
  // Who else is at this table (this Activity instance): a strip above the game, hidden while nobody is.
  const aside = document.createElement("aside");
  aside.className = "together";
  aside.hidden = true;
  root.before(aside);
  const friends = new Follower(api, sdk.instanceId, (strip) => drawStrip(aside, strip, words));
  const game = new Game(api, (state: State, previous: State | null, note?: string) => {
    render(root, state, previous, game.mode, words, handlers, note);
    friends.show(state.id);
  }, fail);

  const handlers = {
    play: (action: string, version: number) => game.tap(action, version),
    rules: () => showDialog(words, el("h2", {}, words.rules_title), paragraphs(me.rules)),
    toggleMode: () => game.toggleMode(),
    hint: async () => {
      const gameId = game.state!.id;
      const shown = (answer: { status: number; body: any }) => {
        if (answer.status === 200) showDialog(words, paragraphs([answer.body.text]));
        else showDialog(words, answer.body?.message ?? words.error);
      };
      try {
        const answer = await api.hint(gameId, false);
        if (answer.status === 428) {  // the first hint of a counted game says what it costs, and waits for a yes
          ask(words, answer.body.message, words.show_hint, () => void api.hint(gameId, true).then(shown, fail));
        } else shown(answer);
      } catch (error) { fail(error); }
    },
    review: async () => {
      // A review takes a while the first time: the server answers with how far it is until it is done (and keeps
      // it: the next tap shows it at once). Closing the dialog stops the asking, not the review.
      const gameId = game.state!.id;
      let shown: HTMLDialogElement | null = null;
      try {
        for (;;) {
          const answer = await api.review(gameId);
          if ("lines" in answer) {
            if (shown === null || (shown.isConnected && shown.open)) showDialog(words, review(answer.lines));
            return;
          }
          shown = showProgress(words, shown, answer.text, answer.progress);
          if (shown === null) return;
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      } catch (error) { fail(error); }
    },
    replay: async () => {
      try {
        const gif = await api.replay(game.state!.id);
        showDialog(words, picture(URL.createObjectURL(gif), words.replay));
      } catch (error) { fail(error); }
    },
    share: async () => {
      try {
        const text = await api.share(game.state!.id);
        const shared = await sdk.commands.shareLink({ message: text });
        if (!shared.success) showDialog(words, shareGrid(text));
      } catch (error) { fail(error); }
    },
    newGame: async (kind: "normal" | "daily") => {
      try { game.show(await api.start(kind)); } catch (error) { fail(error); }
    },
  };

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || document.querySelector("dialog[open]")) return;
    const action = keyAction(event.key);
    const state = game.state;
    if (!action || !state || state.over) return;
    event.preventDefault();
    if (action.kind === "mode") game.toggleMode();
    else if (action.kind === "avoid" && state.avoid) game.tap(state.avoid.code, state.version);
    else if (action.kind === "slot") {
      const slot = state.room.find((s) => s.slot === action.slot);
      const play = slot && playFor(slot, game.mode);
      if (play) game.tap(play.code, state.version);
    }
  });

  const named = params.get("kind") ?? (sdk.customId === "daily" ? "daily" : null);
  const asked = /^[0-9]{1,18}$/.test(params.get("game") ?? "") ? Number(params.get("game")) : null;
  const kind = named === "daily" || named === "normal" ? named : null;
  const opened = asked !== null ? await api.game(asked) : await opening(api, kind, sdk.instanceId);
  if (opened !== null) game.show(opened);
  else {
    welcome(root, words, me.daily, handlers);
    friends.show(null);
  }
}

/** The game the table opens on: the kind named (started when there is none), else (Open the table in chat, the
 * app launcher, a challenge's message) the player's game of a challenge they joined that runs in this channel, so
 * that a challenge's players who open it together each land on its deal; else their daily while it is being
 * played, else their game; null when they have none, and the first screen says what the game is and offers both
 * ways to start. */
async function opening(api: Api, kind: "normal" | "daily" | null, instance: string): Promise<State | null> {
  if (kind !== null) return (await api.current(kind)) ?? (await api.start(kind));
  const challenge = await api.challengeHere(instance);
  if (challenge !== null) return challenge;
  const daily = await api.current("daily");
  if (daily !== null && !daily.over) return daily;
  return await api.current("normal");
}

main().catch((error) => {
  root.setAttribute("aria-busy", "false");
  root.replaceChildren(Object.assign(document.createElement("p"), {
    className: "failed", textContent: error instanceof ApiError ? error.message : String(error),
  }));
});
