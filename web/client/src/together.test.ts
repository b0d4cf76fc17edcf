import { describe, expect, it } from "vitest";
import { events, friendText } from "./together";

const words = { score: "Score", room: "Room", together: "At this table", unfinished: "did not finish" };

describe("the strip of friends at the table", () => {
  it("reads each event of a stream, keeping an unfinished one for the next chunk", () => {
    const first = events('data: {"friends":[],"poll":1.5}\n\n: still here\n\ndata: {"friends":[{"id":"1"');
    expect(first.strips).toEqual([{ friends: [], poll: 1.5 }]);
    const second = events(first.rest + ',"name":"bo"}],"poll":1.5}\n\n');
    expect(second.strips[0].friends[0].name).toBe("bo");
    expect(second.rest).toBe("");
  });

  it("shows a game played together by its room and health, then its score; another only by name", () => {
    const bob = { id: "2", name: "bob", playing: "daily" as const, room: 3, health: 14, status: "playing", score: null };
    expect(friendText(bob, words)).toBe("bob · Room 3 · ❤️ 14");
    expect(friendText({ ...bob, status: "won", score: 17 }, words)).toBe("bob · Score 17");
    expect(friendText({ ...bob, status: "abandoned" }, words)).toBe("bob · did not finish");
    expect(friendText({ ...bob, playing: null, room: null, health: null }, words)).toBe("bob");
  });
});
