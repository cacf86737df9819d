/**
 * Browser-test support: Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH) driven by playwright-core, which
 * never downloads a browser; a Mailroom server process (the bundle users run) with the admin, sending to a test SMTP
 * server; and helpers to read the mails it received.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type FaultySmtpServer, startFaultySmtpServer } from "@mailroom/smtp/testing"
import { type Browser, chromium, type Page } from "playwright-core"
import { type ServeProcess, startServe } from "../../server/test/processes.js"

/** Where Chromium is: CHROMIUM_PATH, else Debian's package. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

/** The token of the test server (all abilities). */
export const ADMIN_TOKEN = "admin-browser-test-token"

/** Starts headless Chromium with the flags this sandbox needs (no background network, no sandbox as root). */
export const launchChromium = (): Promise<Browser> => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`)
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ]
  })
}

/** A server with the admin, its SMTP sink and its data folder. */
export interface AdminServer {
  readonly server: ServeProcess
  readonly smtp: FaultySmtpServer
  readonly stop: () => Promise<void>
}

/** Starts a SQLite Mailroom (`serve`, workers on) that delivers to a test SMTP server. */
export const startAdminServer = async (): Promise<AdminServer> => {
  const smtp = await startFaultySmtpServer()
  const folder = mkdtempSync(join(tmpdir(), "mailroom-admin-"))
  const server = await startServe("admin", {
    API_TOKEN: ADMIN_TOKEN,
    DATABASE_URL: `sqlite:${join(folder, "mailroom.db")}`,
    SMTP_URL: smtp.url,
    LOG_REQUESTS: "true"
  }, folder)
  return {
    server,
    smtp,
    stop: async () => {
      await server.process.kill("SIGTERM")
      await smtp.close()
      rmSync(folder, { recursive: true, force: true })
    }
  }
}

/** The HTML part of a raw mail, quoted-printable decoded. */
export const htmlOf = (raw: string): string =>
  raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))

/** The tracked links of a mail (open pixel and click links), moved to the test server's origin. */
export const trackedLinks = (raw: string, serverUrl: string): { open: string; clicks: ReadonlyArray<string> } => {
  const urls = [...htmlOf(raw).matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&").replace(/^https?:\/\/[^/]+/, serverUrl))
  return { open: urls.find((u) => u.includes("/t/o/"))!, clicks: urls.filter((u) => u.includes("/t/c/")) }
}

/** Signs in on the admin's log-in form with a token (after forgetting the tab's token, if it had one). */
export const signIn = async (page: Page, baseUrl: string, token: string): Promise<void> => {
  await page.goto(`${baseUrl}/admin/`)
  await page.evaluate(() => sessionStorage.clear())
  await page.reload()
  await page.getByLabel("API token", { exact: true }).fill(token)
  await page.getByRole("button", { name: "Sign in" }).click()
}
