import { expectAccessible, launchBrowser, VIEWPORTS } from "@svc/testing";
import type { Browser, Page } from "playwright-core";
import { consoleDistDir } from "../../src/console/console-router.ts";

export { VIEWPORTS };

export interface ConsoleBrowser {
  browser: Browser;
  page: Page;
  /** The text of every answer the console received from the server (for secret checks). */
  answers: string[];
  /** Uncaught errors of the page (a React render error that reached the root, for one). */
  errors: string[];
  /** Client-side navigation, as following a link does (a reload would drop the admin key, held in memory only). */
  navigate(path: string): Promise<void>;
  /** Opens /console and signs in with the admin key; resolves once the signed-in shell shows. */
  signIn(adminKey: string): Promise<void>;
  /** Runs axe on the current page; fails on serious or critical violations. */
  expectAccessible(context: string): Promise<void>;
  close(): Promise<void>;
}

/** Headless chromium on a laptop-sized window (or `viewport`), recording every answer of the instance. */
export async function openConsoleBrowser(baseUrl: string, options: { viewport?: { width: number; height: number } } = {}): Promise<ConsoleBrowser> {
  if (!consoleDistDir()) throw new Error("apps/console/dist is missing: run `npm test` (it builds the console) or `pnpm turbo run build --filter=@svc/console`.");
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: options.viewport ?? { width: 1366, height: 768 }, reducedMotion: "reduce" });
  const answers: string[] = [];
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("response", (response) => {
    if (!response.url().startsWith(baseUrl)) return;
    response.text().then(
      (text) => answers.push(text),
      () => undefined,
    );
  });
  return {
    browser,
    page,
    answers,
    errors,
    async navigate(path) {
      await page.evaluate((to) => {
        // The server's tsconfig has no DOM types: the page's globals, typed as far as used.
        const window_ = globalThis as unknown as {
          history: { pushState(state: unknown, title: string, url: string): void };
          dispatchEvent(event: unknown): void;
          PopStateEvent: new (type: string) => unknown;
        };
        window_.history.pushState({}, "", to);
        window_.dispatchEvent(new window_.PopStateEvent("popstate"));
      }, path);
    },
    async signIn(adminKey) {
      await page.goto(`${baseUrl}/console/`);
      await page.getByLabel("Admin key").fill(adminKey);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("button", { name: "Sign out" }).waitFor();
    },
    expectAccessible: (context) => expectAccessible(page, context),
    close: () => browser.close(),
  };
}
