import { expectAccessible, expectFitsWidth, VIEWPORTS, type ViewportName } from "@svc/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";

export { VIEWPORTS, type ViewportName };

export interface PageUnderTest {
  context: BrowserContext;
  page: Page;
  /**
   * What went wrong while loading: console errors (a CSP refusal, a failed resource), uncaught
   * errors, failed requests and answers >= 400 to anything but the documents themselves.
   */
  problems: string[];
  /** Every request the page made (method and URL). */
  requests: string[];
  /** Runs axe on the current page; fails on serious or critical violations. */
  expectAccessible(context: string): Promise<void>;
  /** Fails when the page is wider than the window (something overflows sideways). */
  expectFitsWidth(context: string): Promise<void>;
  close(): Promise<void>;
}

/** A fresh browser context at the viewport, recording every problem of the pages it loads. */
export async function openPage(browser: Browser, viewport: ViewportName, options: { javaScriptEnabled?: boolean } = {}): Promise<PageUnderTest> {
  const context = await browser.newContext({ viewport: VIEWPORTS[viewport], reducedMotion: "reduce", javaScriptEnabled: options.javaScriptEnabled ?? true });
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("request", (request) => requests.push(`${request.method()} ${request.url()}`));
  page.on("requestfailed", (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ""}`));
  page.on("response", (response) => {
    if (response.status() >= 400 && response.request().resourceType() !== "document") problems.push(`${response.status()}: ${response.url()}`);
  });
  return {
    context,
    page,
    problems,
    requests,
    expectAccessible: (label) => expectAccessible(page, `${label} (${viewport})`),
    expectFitsWidth: (label) => expectFitsWidth(page, VIEWPORTS[viewport].width, `${label} (${viewport})`),
    close: () => context.close(),
  };
}
