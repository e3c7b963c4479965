import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { importMarkdown } from "../../document/markdown";
import { stableOid } from "../../lib/ids";
import { createTestApp, insertTestDeck, insertTestUser, TestAgent } from "../../server/testing";
import type { PresentationPageData } from "../presentation/page-data";

/** Spec §2, §3 (R3.5, R2.19): the native app travels in the page data, for signed-in viewers. */
const NATIVE_APP = {
  type: "ios" as const,
  url: "https://store.example/podium",
  ownProtocolUrl: "podium://open",
  openAppTimeout: 300,
};
const OID = stableOid("t:native-app");

function pageDataOf(html: string): PresentationPageData {
  const json = /<script type="application\/json" id="podium-boot">([^<]*)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error("no boot data on the page");
  return (JSON.parse(json) as { data: PresentationPageData }).data;
}

describe.each(testDatabaseTargets().slice(0, 1))("the view page's native app, on $name", (target) => {
  let testApp: Awaited<ReturnType<typeof createTestApp>>;

  beforeAll(async () => {
    testApp = await createTestApp(target, { nativeApp: NATIVE_APP, nativeApps: [NATIVE_APP] });
    const owner = await insertTestUser(testApp.db, {
      oid: stableOid("t:native-owner"),
      email: "owner@podium.test",
      username: "owner",
      firstName: "Olu",
      lastName: "Owner",
    });
    await insertTestDeck(testApp.db, {
      oid: OID,
      ownerId: owner.id,
      title: "Native deck",
      document: importMarkdown("# Native deck\n---\n# Second", "2"),
      viewCount: 3,
      lastModified: new Date("2026-01-02T00:00:00Z"),
    });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it("R3.5 page data nativeApp holds the app for a signed-in viewer (not only the header's app data), and null when signed out", async () => {
    const anonymous = await testApp.app.inject({ method: "GET", url: `/p/${OID}/` });
    expect(anonymous.statusCode).toBe(200);
    const signedOut = pageDataOf(anonymous.body);
    expect(signedOut.nativeApp).toBeNull();
    expect(signedOut.appData?.nativeApps).toEqual([]);
    expect(anonymous.body).not.toContain("podium://open");

    const viewer = new TestAgent(testApp.app);
    await viewer.signUp("native-viewer@podium.test");
    const response = await viewer.get(`/p/${OID}/`);
    expect(response.statusCode).toBe(200);
    const signedIn = pageDataOf(response.body);
    expect(signedIn.isAuthenticated).toBe(true);
    expect(signedIn.nativeApp).toEqual(NATIVE_APP);
    // The header's store badges (R2.26, appData.nativeApps) show the same app.
    expect(signedIn.appData?.nativeApps).toEqual([NATIVE_APP]);
    expect(response.body).toContain('data-store="ios"');
  });
});
