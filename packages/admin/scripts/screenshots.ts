/**
 * `npm run admin:screenshots`: starts a server with demo data, opens every admin screen in Debian's Chromium at 1280
 * and 390 px wide, and writes the pictures to docs/admin/ (the README shows them).
 */
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { ADMIN_TOKEN, launchChromium, signIn, startAdminServer } from "../test/browser.js"
import { makeDemo } from "./demoData.js"

const OUT = fileURLToPath(new URL("../../../docs/admin/", import.meta.url))

const admin = await startAdminServer()
const browser = await launchChromium()
try {
  const demo = await makeDemo(admin.server.url, ADMIN_TOKEN, admin.smtp)
  const screens: ReadonlyArray<readonly [string, string]> = [
    ["dashboard", "/"],
    ["lists", "/lists"],
    ["list", `/lists/${demo.list}`],
    ["subscribers", `/lists/${demo.list}/subscribers`],
    ["subscriber", `/subscribers/${demo.subscriber}`],
    ["tags", `/lists/${demo.list}/tags`],
    ["segments", `/lists/${demo.list}/segments`],
    ["templates", "/templates"],
    ["template-editor", `/templates/${demo.template}`],
    ["campaigns", "/campaigns"],
    ["campaign-compose", `/campaigns/${demo.draft}/edit`],
    ["campaign-statistics", `/campaigns/${demo.campaign}`],
    ["import-new", "/imports/new"],
    ["import", `/imports/${demo.importId}`],
    ["suppressions", "/suppressions"],
    ["transactional", "/transactional"],
    ["transactional-template", `/transactional/templates/${demo.transactionalTemplate}`],
    ["transactional-mail", `/transactional/mails/${demo.transactionalMail}`],
    ["automations", "/automations"],
    ["automation-flow", `/automations/${demo.automation}`],
    ["automation-mails", "/automation-mails"],
    ["automation-mail", `/automation-mails/${demo.automationMail}`],
    ["webhooks", "/webhooks"],
    ["webhook", `/webhooks/${demo.webhook}`],
    ["tokens", "/tokens"]
  ]
  mkdirSync(OUT, { recursive: true })
  for (const [width, height, suffix] of [[1280, 900, ""], [390, 844, "-390"]] as const) {
    const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 })
    await signIn(page, admin.server.url, ADMIN_TOKEN)
    await page.getByRole("button", { name: "Sign out" }).waitFor()
    for (const [name, path] of screens) {
      await page.goto(`${admin.server.url}/admin${path}`)
      await page.getByRole("heading", { level: 1 }).waitFor()
      await page.waitForLoadState("networkidle")
      await page.waitForTimeout(700)
      await page.screenshot({ path: `${OUT}${name}${suffix}.png`, fullPage: width > 400 })
    }
    await page.close()
  }
  console.log(`wrote ${OUT}: ${screens.length} screens at 1280 and 390 px`)
} finally {
  await browser.close()
  await admin.stop()
}
