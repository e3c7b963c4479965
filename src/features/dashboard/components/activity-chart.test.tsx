// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RawIntlProvider } from "../../../i18n/intl";
import type { Locale } from "../../../i18n/locales";
import en from "../../../i18n/messages/en.json";
import { createPodiumIntl } from "../../../i18n/podium-intl";
import type { PresentationActivity } from "../repository";
import { ActivityChart, scaleTop } from "./ActivityChart";

afterEach(cleanup);

/** 30 days ending 2025-03-30: a busy 29th, a like on the 30th, zeros elsewhere. */
function activityOf(busy: { views: number; likes: number }): PresentationActivity {
  const days = Array.from({ length: 30 }, (_, i) => ({
    day: `2025-03-${String(i + 1).padStart(2, "0")}`,
    views: i === 28 ? busy.views : 0,
    likes: i === 28 ? busy.likes : i === 29 ? 1 : 0,
  }));
  const totals = {
    views: days.reduce((sum, d) => sum + d.views, 0),
    likes: days.reduce((sum, d) => sum + d.likes, 0),
  };
  return { days, totals };
}

const chart = (activity: PresentationActivity, locale: Locale = "en") => (
  <RawIntlProvider value={createPodiumIntl(locale, en)}>
    <ActivityChart activity={activity} />
  </RawIntlProvider>
);

describe("the views and likes chart", () => {
  it("rounds each scale up to four equal round steps", () => {
    expect(scaleTop(0)).toBe(4);
    expect(scaleTop(3)).toBe(4);
    expect(scaleTop(5)).toBe(8);
    expect(scaleTop(9)).toBe(20);
    expect(scaleTop(37)).toBe(40);
    expect(scaleTop(1234)).toBe(2000);
  });

  it("has a text alternative, a legend with totals, bars for views and a table of every day", () => {
    render(chart(activityOf({ views: 1234, likes: 5 })));
    expect(screen.getByRole("heading", { name: "Views and likes, last 30 days" })).toBeTruthy();
    const image = screen.getByRole("img");
    expect(image.getAttribute("aria-label")).toBe(
      "Chart of views per day as bars (left scale) and likes per day as a line (right scale), Mar 1 to Mar 30: 1,234 views and 6 likes in all. The table after the chart lists every day.",
    );
    expect(document.querySelectorAll(".activity__chart .activity__bar")).toHaveLength(1);
    expect(document.querySelectorAll(".activity__chart .activity__marker")).toHaveLength(2);
    const table = screen.getByRole("table", { name: "Views and likes per day (UTC)" });
    const rows = within(table).getAllByRole("row");
    expect(rows).toHaveLength(32);
    expect(rows[29]?.textContent).toBe("Mar 29, 20251,2345");
    expect(rows[31]?.textContent).toBe("Total1,2346");
    expect(screen.queryByText(/No views or likes/)).toBeNull();
  });

  it("writes numbers and dates in the page's language", () => {
    render(chart(activityOf({ views: 1234, likes: 5 }), "de"));
    const legend = document.querySelector(".activity__legend")?.textContent;
    expect(legend).toBe("Views1.234Likes6");
    expect(screen.getByRole("table").querySelector("tbody tr:nth-child(29) th")?.textContent).toBe("29.03.2025");
  });

  it("says so when nothing happened yet, with every day still in the table", () => {
    render(
      chart({
        days: activityOf({ views: 0, likes: 0 }).days.map((d) => ({ ...d, likes: 0 })),
        totals: { views: 0, likes: 0 },
      }),
    );
    expect(screen.getByText(/No views or likes in these days yet/)).toBeTruthy();
    expect(within(screen.getByRole("table")).getAllByRole("row")).toHaveLength(32);
  });

  it("hydrates the server's markup without a mismatch", async () => {
    const activity = activityOf({ views: 12, likes: 3 });
    const container = document.createElement("div");
    container.innerHTML = renderToString(chart(activity));
    document.body.append(container);
    const problems = vi.fn();
    const root = await act(async () => hydrateRoot(container, chart(activity), { onRecoverableError: problems }));
    expect(problems).not.toHaveBeenCalled();
    act(() => root.unmount());
    container.remove();
  });
});
