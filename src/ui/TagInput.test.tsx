// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { messagesFor } from "../i18n/catalogues";
import { createPodiumIntl } from "../i18n/podium-intl";
import { PodiumApp } from "./PodiumApp";
import { splitTags, TagInput, tagKeyAction } from "./TagInput";

afterEach(cleanup);

function renderTags(tags: string[]) {
  render(
    <PodiumApp intl={createPodiumIntl("en", messagesFor("en"))}>
      <form>
        <label htmlFor="tags">Tags</label>
        <TagInput id="tags" name="tags" defaultTags={tags} />
      </form>
    </PodiumApp>,
  );
  const field = screen.getByLabelText("Tags") as HTMLInputElement;
  const sent = () => (document.querySelector('input[name="tags"]') as HTMLInputElement).value;
  return { field, sent };
}

describe("tag field", () => {
  it("R9.13 comma (188) and enter (13) add a tag, escape (27) clears the typing", () => {
    expect(tagKeyAction({ key: ",", keyCode: 188 })).toBe("add");
    expect(tagKeyAction({ key: "Unidentified", keyCode: 188 })).toBe("add");
    expect(tagKeyAction({ key: "Enter", keyCode: 13 })).toBe("add");
    expect(tagKeyAction({ key: "Escape", keyCode: 27 })).toBe("clear");
    expect(tagKeyAction({ key: "a", keyCode: 65 })).toBeNull();
    expect(splitTags(" bread ,, sour  dough,")).toEqual(["bread", "sour dough"]);
  });

  it("R9.13 typing a tag and pressing comma makes it a chip; the form sends the tags comma-separated", () => {
    const { field, sent } = renderTags(["baking"]);
    expect(sent()).toBe("baking");
    fireEvent.change(field, { target: { value: "bread" } });
    expect(fireEvent.keyDown(field, { key: ",", keyCode: 188 })).toBe(false);
    expect(field.value).toBe("");
    expect(screen.getByRole("button", { name: "Remove tag bread" })).toBeTruthy();
    expect(sent()).toBe("baking, bread");
    // A repeated tag is not added twice; Escape clears what is typed.
    fireEvent.change(field, { target: { value: "Bread" } });
    fireEvent.keyDown(field, { key: ",", keyCode: 188 });
    expect(sent()).toBe("baking, bread");
    fireEvent.change(field, { target: { value: "half typed" } });
    expect(sent()).toBe("baking, bread, half typed");
    fireEvent.keyDown(field, { key: "Escape", keyCode: 27 });
    expect(field.value).toBe("");
    fireEvent.click(screen.getByRole("button", { name: "Remove tag baking" }));
    expect(sent()).toBe("bread");
    expect(document.activeElement).toBe(field);
  });
});
