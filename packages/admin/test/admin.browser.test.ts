import type { Browser, Page } from "playwright-core"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { tail } from "../../server/test/processes.js"
import { type AdminServer, ADMIN_TOKEN, launchChromium, signIn, startAdminServer, trackedLinks } from "./browser.js"

/**
 * The web admin in a real browser against a real server, as a new user goes: sign in, create a list and a subscriber,
 * import a CSV file, compose a campaign with a live preview, send a test, send it to the test SMTP server, and watch
 * its statistics change after an open and a click. Then a read-only token sees no buttons that change anything.
 */
describe("web admin in Chromium", () => {
  let admin: AdminServer
  let browser: Browser
  let page: Page
  let base: string
  const errors: Array<string> = []

  beforeAll(async () => {
    ;[admin, browser] = await Promise.all([startAdminServer(), launchChromium()])
    base = admin.server.url
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    page.on("pageerror", (error) => errors.push(String(error)))
    page.on("dialog", (dialog) => void dialog.accept())
  })

  afterEach(async (context) => {
    if (context.task.result?.state !== "fail" || page === undefined) return
    const path = join(tmpdir(), `admin-failure-${context.task.name.replace(/\W+/g, "-")}.png`)
    await page.screenshot({ path, fullPage: true })
    console.error(`screenshot of the failure: ${path} (at ${page.url()})\nserver log:\n${tail(admin.server.process.output(), 40)}`)
  })

  afterAll(async () => {
    await browser?.close()
    await admin?.stop()
  })

  const heading = () => page.getByRole("heading", { level: 1 })

  it("refuses a wrong token and signs in with a right one", async () => {
    await signIn(page, base, "not-a-token")
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("not valid")
    await page.getByLabel("API token", { exact: true }).fill(ADMIN_TOKEN)
    await page.getByRole("button", { name: "Sign in" }).click()
    await expect.poll(() => heading().textContent()).toBe("Dashboard")
    expect(await page.evaluate(() => sessionStorage.getItem("mailroom.token"))).toBe(ADMIN_TOKEN)
  })

  it("creates a list and a subscriber, and shows a 422 at its field", async () => {
    await page.getByRole("navigation", { name: "Main" }).last().getByRole("link", { name: "Email lists" }).click()
    await page.getByLabel("Name", { exact: true }).fill("Newsletter")
    await page.getByLabel("From address", { exact: true }).fill("news@example.com")
    await page.getByRole("button", { name: "Create list" }).click()
    await expect.poll(() => heading().textContent()).toBe("Newsletter")
    await page.getByRole("link", { name: "Subscribers", exact: true }).click()
    const add = async () => {
      await page.getByRole("button", { name: "Add subscriber" }).click()
      await page.getByLabel("Email", { exact: true }).fill("ann@example.com")
      await page.getByLabel("First name", { exact: true }).fill("Ann")
      await page.getByRole("button", { name: "Add", exact: true }).click()
    }
    await add()
    await expect.poll(() => page.getByRole("link", { name: "ann@example.com" }).count()).toBe(1)
    await add()
    const field = page.getByLabel("Email", { exact: true })
    await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true")
    expect(await page.locator(".field-error").first().textContent()).toMatch(/email/i)
  })

  it("imports a CSV file and shows the refused row", async () => {
    await page.goto(`${base}/admin/imports/new`)
    await page.locator("input[type=file]").setInputFiles({
      name: "people.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("email,first_name\nbob@example.com,Bob\nnot-an-address,Nobody\ncy@example.com,Cy\n")
    })
    await page.getByRole("button", { name: "Upload and import" }).click()
    await expect.poll(() => heading().textContent(), { timeout: 20_000 }).toMatch(/^Import #\d+$/)
    await expect.poll(() => page.locator(".badge").first().textContent(), { timeout: 30_000 }).toBe("completed")
    await expect.poll(() => page.getByRole("cell", { name: "not-an-address" }).count()).toBe(1)
    await page.goto(`${base}/admin/lists`)
    await expect.poll(() => page.getByRole("row", { name: /Newsletter/ }).textContent()).toContain("3")
  })

  let campaignUrl = ""

  it("composes a campaign with a live preview for a chosen subscriber and sends a test", async () => {
    await page.goto(`${base}/admin/campaigns/new`)
    await page.getByLabel("Name", { exact: true }).fill("November news")
    await page.getByLabel("Subject", { exact: true }).fill("News for {{ subscriber.first_name }}")
    await page.getByLabel("HTML", { exact: true }).fill('<p>Hello {{ subscriber.first_name }}!</p><p><a href="https://example.com/offer">The offer</a></p>')
    await expect.poll(async () => (await page.getByLabel("Preview for", { exact: true }).locator("option").allTextContents()).join(" ")).toContain("ann@example.com")
    await page.getByLabel("Preview for", { exact: true }).selectOption({ label: "ann@example.com" })
    const frame = page.frameLocator("iframe[title='Preview of the mail']")
    await expect.poll(() => frame.locator("body").textContent(), { timeout: 10_000 }).toContain("Hello Ann!")
    expect(await page.locator(".preview-subject").textContent()).toContain("News for Ann")
    await page.getByRole("button", { name: "Create draft" }).click()
    await expect.poll(() => heading().textContent()).toBe("November news")
    campaignUrl = page.url()
    await page.getByLabel("Send a test to", { exact: true }).fill("tester@example.com")
    await page.getByRole("button", { name: "Send test" }).click()
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("Test sent to tester@example.com")
    await admin.smtp.waitFor(1, 15_000)
    expect(admin.smtp.received[0]!.to).toEqual(["tester@example.com"])
  })

  it("sends the campaign, shows its progress, then its opens and clicks", async () => {
    await page.getByRole("button", { name: "Send now" }).click()
    await expect.poll(() => page.locator(".facts .badge").textContent(), { timeout: 30_000 }).toBe("sent")
    await admin.smtp.waitFor(4, 15_000)
    await expect.poll(() => page.locator(".progress-label").first().textContent(), { timeout: 10_000 }).toContain("3 of 3 sent")
    const annMail = admin.smtp.received.find((mail) => mail.to.includes("ann@example.com"))!
    const links = trackedLinks(annMail.raw, base)
    expect((await fetch(links.open)).status).toBe(200)
    expect((await fetch(links.clicks[0]!, { redirect: "manual" })).status).toBe(302)
    await page.goto(campaignUrl)
    await expect.poll(async () => page.locator(".stats").first().textContent(), { timeout: 15_000 }).toMatch(/Opens1 \(33\.3 %\)/)
    await expect.poll(() => page.getByRole("row", { name: /example\.com\/offer/ }).textContent()).toMatch(/1\s*1|11/)
    await expect.poll(() => page.getByRole("row", { name: /ann@example\.com/ }).count(), { timeout: 15_000 }).toBe(1)
    await expect.poll(() => page.locator(".chart-box canvas").count()).toBe(1)
  })

  it("keeps the settings its forms do not show when it edits and schedules a campaign", async () => {
    const list = await admin.server.call("POST", "/api/email-lists", { name: "Kept", default_from_email: "kept@example.com" })
    const created = await admin.server.call("POST", "/api/campaigns", {
      name: "Kept settings", email_list_uuid: list.body.data.uuid, subject: "Before", html: "<p>Hi</p>",
      add_subscriber_tags: true, add_subscriber_link_tags: true, disable_webview: true
    })
    const uuid = created.body.data.uuid as string
    await page.goto(`${base}/admin/campaigns/${uuid}/edit`)
    await page.getByLabel("Subject", { exact: true }).fill("After")
    await page.getByRole("button", { name: "Save" }).click()
    await expect.poll(() => heading().textContent()).toBe("Kept settings")
    await page.getByLabel("Send at (your time)", { exact: true }).fill("2030-01-01T09:00")
    await page.getByRole("button", { name: "Schedule" }).click()
    await expect.poll(async () => (await admin.server.call("GET", `/api/campaigns/${uuid}`)).body.data.status).toBe("scheduled")
    const kept = (await admin.server.call("GET", `/api/campaigns/${uuid}`)).body.data
    expect({ subject: kept.subject, tags: kept.add_subscriber_tags, linkTags: kept.add_subscriber_link_tags, webview: kept.disable_webview })
      .toEqual({ subject: "After", tags: true, linkTags: true, webview: true })
    await admin.server.call("DELETE", `/api/campaigns/${uuid}`)
    await admin.server.call("DELETE", `/api/email-lists/${list.body.data.uuid}`)
  })

  it("says Saved. once a settings form is saved, and no longer when a field changes again", async () => {
    const list = await admin.server.call("POST", "/api/email-lists", { name: "Saving", default_from_email: "saving@example.com" })
    const uuid = list.body.data.uuid as string
    await page.goto(`${base}/admin/lists/${uuid}`)
    const saved = page.getByRole("status").filter({ hasText: "Saved." })
    await page.getByLabel("From name", { exact: true }).fill("The Saving Team")
    await page.getByRole("button", { name: "Save" }).click()
    await expect.poll(() => saved.count()).toBe(1)
    expect((await admin.server.call("GET", `/api/email-lists/${uuid}`)).body.data.default_from_name).toBe("The Saving Team")
    await page.getByLabel("From name", { exact: true }).fill("The Savings Team")
    await expect.poll(() => saved.count()).toBe(0)
    await admin.server.call("DELETE", `/api/email-lists/${uuid}`)
  })

  it("shows a read-only token no button that changes anything", async () => {
    await page.goto(`${base}/admin/tokens`)
    await page.getByLabel("Name", { exact: true }).fill("dashboards")
    await page.getByRole("button", { name: "Create token" }).click()
    const secret = (await page.locator("code.secret").textContent({ timeout: 10_000 }))!.trim()
    await page.getByRole("button", { name: "Sign out" }).click()
    await signIn(page, base, secret)
    await expect.poll(() => heading().textContent()).toBe("Dashboard")
    await page.goto(campaignUrl)
    await expect.poll(() => heading().textContent()).toBe("November news")
    expect(await page.getByRole("button", { name: /Send|Delete|Pause/ }).count()).toBe(0)
    await page.goto(`${base}/admin/campaigns`)
    await expect.poll(() => heading().textContent()).toBe("Campaigns")
    expect(await page.getByRole("link", { name: "New campaign" }).count()).toBe(0)
    await page.goto(`${base}/admin/lists`)
    await expect.poll(() => heading().textContent()).toBe("Email lists")
    expect(await page.getByRole("button", { name: "Create list" }).count()).toBe(0)
  })

  it("works from the keyboard alone: a skip link first, links by Tab and Enter, focus on each new screen's title", async () => {
    await page.goto(`${base}/admin/`)
    await expect.poll(() => heading().textContent()).toBe("Dashboard")
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "")
    await page.keyboard.press("Tab")
    expect(await focused()).toBe("Skip to content")
    for (let i = 0; i < 12 && (await focused()) !== "Campaigns"; i++) await page.keyboard.press("Tab")
    expect(await focused()).toBe("Campaigns")
    await page.keyboard.press("Enter")
    await expect.poll(() => heading().textContent()).toBe("Campaigns")
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("page-title")
  })

  it("fits a 390 px wide screen without sideways scrolling, with the menu behind a button", async () => {
    await signIn(page, base, ADMIN_TOKEN)
    await expect.poll(() => heading().textContent()).toBe("Dashboard")
    await page.setViewportSize({ width: 390, height: 844 })
    const screens = ["/", "/campaigns", "/lists", campaignUrl.replace(`${base}/admin`, ""), "/imports", "/imports/new", "/campaigns/new", "/templates",
      "/templates/new", "/suppressions", "/transactional", "/automations", "/automation-mails", "/webhooks", "/tokens"]
    for (const path of screens) {
      await page.goto(`${base}/admin${path}`)
      await expect.poll(() => heading().isVisible()).toBe(true)
      await page.waitForLoadState("networkidle")
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390)
    }
    await page.getByText("Menu").click()
    await page.getByRole("navigation", { name: "Main" }).first().getByRole("link", { name: "Suppressions" }).click()
    await expect.poll(() => heading().textContent()).toBe("Suppressions")
    expect(errors).toEqual([])
  })
})
