import { describe, expect, it } from "vitest";
import {
  initialPresenterState,
  notesParagraphs,
  presenterChannelName,
  presenterOffered,
  readAudienceMessage,
  readPresenterMessage,
  receiveAudienceMessage,
  requestStep,
} from "./sync";

describe("issue 10: presenter view messages", () => {
  it("issue 10: one channel per presentation", () => {
    expect(presenterChannelName("abc123def456")).toBe("podium-present:abc123def456");
    expect(presenterChannelName("abc123def456")).not.toBe(presenterChannelName("zzz123def456"));
  });

  it("issue 10: the player accepts hello and go with an integer step in range, nothing else", () => {
    expect(readPresenterMessage({ type: "hello" }, 5)).toEqual({ type: "hello" });
    expect(readPresenterMessage({ type: "go", step: 0, seq: 1 }, 5)).toEqual({ type: "go", step: 0, seq: 1 });
    expect(readPresenterMessage({ type: "go", step: 4, seq: 9 }, 5)).toEqual({ type: "go", step: 4, seq: 9 });
    for (const bad of [
      null,
      undefined,
      "go",
      42,
      [],
      ["go", 1],
      {},
      { type: "go" },
      { type: "go", step: 5, seq: 1 },
      { type: "go", step: -1, seq: 1 },
      { type: "go", step: 1.5, seq: 1 },
      { type: "go", step: "1", seq: 1 },
      { type: "go", step: Number.NaN, seq: 1 },
      { type: "go", step: Number.POSITIVE_INFINITY, seq: 1 },
      { type: "go", step: 1 },
      { type: "go", step: 1, seq: -1 },
      { type: "go", step: 1, seq: "1" },
      { type: "state", step: 1, total: 5 },
      { type: "navigate", step: 1, seq: 1 },
      { type: "__proto__", step: 1, seq: 1 },
    ]) {
      expect(readPresenterMessage(bad, 5), JSON.stringify(bad) ?? String(bad)).toBeNull();
    }
    // A player with nothing loaded accepts no step at all.
    expect(readPresenterMessage({ type: "go", step: 0, seq: 1 }, 0)).toBeNull();
  });

  it("issue 10: the presenter view accepts state (step in its own range) and bye, nothing else", () => {
    expect(readAudienceMessage({ type: "state", step: 2, total: 5 }, 5)).toEqual({ type: "state", step: 2, total: 5 });
    expect(readAudienceMessage({ type: "state", step: 2, total: 5, replyTo: 3 }, 5)).toEqual({
      type: "state",
      step: 2,
      total: 5,
      replyTo: 3,
    });
    expect(readAudienceMessage({ type: "bye" }, 5)).toEqual({ type: "bye" });
    for (const bad of [
      null,
      { type: "state" },
      { type: "state", step: 5 },
      { type: "state", step: -1 },
      { type: "state", step: 0.5 },
      { type: "state", step: "2" },
      { type: "state", step: 2, replyTo: -3 },
      { type: "state", step: 2, replyTo: 1.5 },
      { type: "go", step: 2, seq: 1 },
      { type: "hello" },
    ]) {
      expect(readAudienceMessage(bad, 5), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe("issue 10: the presenter view keeps in step with the player", () => {
  it("issue 10: moving asks the player with a fresh sequence number and moves at once (works alone)", () => {
    const start = initialPresenterState(4);
    expect(start).toEqual({ step: 0, total: 4, connected: false, seq: 0 });
    const first = requestStep(start, 1);
    expect(first).toEqual({
      state: { step: 1, total: 4, connected: false, seq: 1 },
      message: { type: "go", step: 1, seq: 1 },
    });
    const second = requestStep(first?.state ?? start, 2);
    expect(second?.message).toEqual({ type: "go", step: 2, seq: 2 });
    expect(second?.state.step).toBe(2);
  });

  it("issue 10: nothing is asked past either end or for the step already shown", () => {
    const start = initialPresenterState(3);
    expect(requestStep(start, -1)).toBeNull();
    expect(requestStep(start, 3)).toBeNull();
    expect(requestStep(start, 0)).toBeNull();
    expect(requestStep(start, 1.5)).toBeNull();
  });

  it("issue 10: the presenter follows the player's own moves and the answer to its latest request", () => {
    let state = initialPresenterState(6);
    state = receiveAudienceMessage(state, { type: "state", step: 3, total: 6 });
    expect(state).toMatchObject({ step: 3, connected: true });
    const asked = requestStep(state, 4);
    if (!asked) throw new Error("expected a request");
    state = receiveAudienceMessage(asked.state, { type: "state", step: 4, total: 6, replyTo: asked.message.seq });
    expect(state.step).toBe(4);
    // The audience presses Right itself: followed.
    state = receiveAudienceMessage(state, { type: "state", step: 5, total: 6 });
    expect(state.step).toBe(5);
  });

  it("issue 10: an answer to an older request doesn't pull the presenter back (two quick presses)", () => {
    let state = initialPresenterState(6);
    const one = requestStep(state, 1);
    const two = one && requestStep(one.state, 2);
    if (!one || !two) throw new Error("expected requests");
    state = receiveAudienceMessage(two.state, { type: "state", step: 1, total: 6, replyTo: one.message.seq });
    expect(state).toMatchObject({ step: 2, connected: true });
    state = receiveAudienceMessage(state, { type: "state", step: 2, total: 6, replyTo: two.message.seq });
    expect(state.step).toBe(2);
  });

  it("issue 10: bye marks the audience window gone; the presenter keeps its step", () => {
    let state = receiveAudienceMessage(initialPresenterState(3), { type: "state", step: 2, total: 3 });
    state = receiveAudienceMessage(state, { type: "bye" });
    expect(state).toMatchObject({ step: 2, connected: false });
  });

  it("issue 10: a start step out of range starts at the first", () => {
    expect(initialPresenterState(3, 7).step).toBe(0);
    expect(initialPresenterState(3, 2).step).toBe(2);
  });
});

describe("issue 10: notes", () => {
  const topic = (notes?: string, topics: { notes?: string; topics: never[] }[] = []) => ({ notes, topics });

  it("issue 10: the presenter view is offered when any topic (nested too) has notes, or to editors", () => {
    expect(presenterOffered([topic(), topic()], false)).toBe(false);
    expect(presenterOffered([topic("  \n ")], false)).toBe(false);
    expect(presenterOffered([topic(), topic("Say hello")], false)).toBe(true);
    expect(presenterOffered([topic(undefined, [{ notes: "Deep", topics: [] }])], false)).toBe(true);
    expect(presenterOffered([topic()], true)).toBe(true);
  });

  it("issue 10: notes are paragraphs separated by blank lines; single breaks stay in a paragraph", () => {
    expect(notesParagraphs(undefined)).toEqual([]);
    expect(notesParagraphs("")).toEqual([]);
    expect(notesParagraphs("One line")).toEqual(["One line"]);
    expect(notesParagraphs("First\nstill first\n\nSecond\r\n\r\nThird\n \t\n\n\nFourth  ")).toEqual([
      "First\nstill first",
      "Second",
      "Third",
      "Fourth",
    ]);
  });
});
