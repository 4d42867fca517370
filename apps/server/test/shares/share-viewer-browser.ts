import { expectFitsWidth, launchBrowser, VIEWPORTS } from "@svc/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";

export { expectAccessible } from "@svc/testing";

/** The two screens the share viewer is tested on: a desktop and a mid-range phone (touch). */
export const SCREENS = [
  { name: "desktop", ...VIEWPORTS.desktop, phone: false },
  { name: "phone", ...VIEWPORTS.phone, phone: true },
] as const;
export type Screen = (typeof SCREENS)[number];

export interface ViewerBrowser {
  browser: Browser;
  /** A fresh page on the screen, its clock in `timezoneId` (a doctor west of UTC by default). */
  newPage(screen: Screen, timezoneId?: string): Promise<Page>;
  close(): Promise<void>;
}

export async function openViewerBrowser(): Promise<ViewerBrowser> {
  const browser = await launchBrowser();
  const contexts: BrowserContext[] = [];
  return {
    browser,
    async newPage(screen, timezoneId = "America/Los_Angeles") {
      const context = await browser.newContext({
        viewport: { width: screen.width, height: screen.height },
        isMobile: screen.phone,
        hasTouch: screen.phone,
        reducedMotion: "reduce",
        timezoneId,
        locale: "en-US",
        acceptDownloads: true,
      });
      contexts.push(context);
      return context.newPage();
    },
    close: () => browser.close(),
  };
}

/** Nothing on the page is wider than the screen (no sideways scrolling). */
export function expectNoSidewaysScroll(page: Page, screen: Screen): Promise<void> {
  return expectFitsWidth(page, screen.width, `the page on the ${screen.name}`);
}
