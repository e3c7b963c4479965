import { chromium } from "@playwright/test";
const base = process.env.BASE ?? "http://127.0.0.1:3320";
const [, , path, widthsArg, who] = process.argv;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox","--disable-gpu","--disable-background-networking"] });
const context = await browser.newContext();
await context.addCookies([{ name: "podium_cookie_consent", value: "necessary", url: base }]);
const page = await context.newPage();
if (who) {
  await page.goto(base + "/login/");
  await page.getByLabel("Email").fill(who);
  await page.getByLabel("Password", { exact: true }).fill(process.env.PW ?? "podium-demo");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForLoadState("networkidle");
}
for (const w of (widthsArg ?? "1440").split(",").map(Number)) {
  await page.setViewportSize({ width: w, height: 900 });
  await page.goto(base + path);
  await page.waitForLoadState("networkidle");
  if (process.env.CSS) await page.addStyleTag({ content: process.env.CSS });
  if (process.env.EVAL) console.log(await page.evaluate(process.env.EVAL));
  const sel = process.env.SEL;
  const target = sel ? page.locator(sel).first() : page;
  await target.screenshot({ path: `/tmp/shots/${(process.env.NAME ?? "shot")}-${w}.png`, fullPage: !sel });
  console.log("shot", w, await page.evaluate(() => document.documentElement.scrollWidth));
}
await browser.close();
