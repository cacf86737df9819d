/**
 * Demo data for the admin's screenshots, made through the API as a user would: two lists, a few hundred subscribers
 * from a CSV import (one row refused), tags, a segment, a template, a sent campaign with opens and clicks, a draft,
 * a transactional template and mail, an automation mail inside an automation, a webhook and a suppression.
 */
import type { FaultySmtpServer } from "@mailroom/smtp/testing"
import { setTimeout as sleep } from "node:timers/promises"
import { trackedLinks } from "../test/browser.js"

/** Calls the API; fails loudly on anything but 2xx. */
const caller = (url: string, token: string) => async (method: string, path: string, body?: unknown): Promise<any> => {
  const response = await fetch(`${url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return text === "" ? undefined : JSON.parse(text)
}

const FIRST = ["Ada", "Bob", "Cleo", "Dev", "Eve", "Finn", "Gia", "Hugo", "Ivy", "Jon", "Kai", "Lena", "Milo", "Nia", "Otto"]
const LAST = ["Lovelace", "Stone", "Park", "Rao", "Moreau", "Berg", "Costa", "Novak", "Sato", "Weber"]

/** What the screenshots link to. */
export interface Demo {
  readonly list: string
  readonly subscriber: string
  readonly campaign: string
  readonly draft: string
  readonly template: string
  readonly importId: number
  readonly transactionalTemplate: string
  readonly transactionalMail: string
  readonly automation: string
  readonly automationMail: string
  readonly webhook: string
}

/** Makes the demo data and waits until the campaign is sent and its opens and clicks are counted. */
export const makeDemo = async (url: string, token: string, smtp: FaultySmtpServer): Promise<Demo> => {
  const api = caller(url, token)
  const list = (await api("POST", "/email-lists", { name: "Weekly newsletter", default_from_email: "news@example.com", default_from_name: "The Example Team" })).data
  await api("POST", "/email-lists", { name: "Product updates", default_from_email: "product@example.com" })
  const rows = ["email,first_name,last_name,tags"]
  for (let i = 0; i < 240; i++) {
    rows.push(`${FIRST[i % FIRST.length]!.toLowerCase()}.${i}@example.com,${FIRST[i % FIRST.length]},${LAST[i % LAST.length]},${i % 3 === 0 ? "customer" : "lead"}${i % 5 === 0 ? ";vip" : ""}`)
  }
  rows.push("not-an-address,Nobody,Nowhere,lead")
  const started = (await api("POST", "/subscriber-imports", { subscribers_csv: `${rows.join("\n")}\n`, email_list_id: list.id, subscribe_unsubscribed: false, unsubscribe_others: false })).data
  await api("POST", `/subscriber-imports/${started.id}/start`)
  for (let i = 0; i < 100; i++) {
    if ((await api("GET", `/subscriber-imports/${started.id}`)).data.status === "completed") break
    await sleep(200)
  }
  const subscriber = (await api("POST", `/email-lists/${list.uuid}/subscribers`, { email: "ada@example.com", first_name: "Ada", last_name: "Lovelace", tags: ["vip", "customer"], extra_attributes: { city: "London" }, skip_confirmation: true })).data
  await api("POST", `/email-lists/${list.uuid}/segments`, { name: "VIP customers", positive_tags: ["vip", "customer"], all_positive_tags_required: true })
  const template = (await api("POST", "/templates", {
    name: "Newsletter",
    html: "<!doctype html><html><body style=\"font-family: sans-serif; max-width: 560px; margin: auto; color: #222\">" +
      "<h1 style=\"color: #4338ca\">[[[title]]]</h1>[[[content:markdown]]]" +
      "<p style=\"color: #888; font-size: 12px\">You get this because you subscribed. <a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></p></body></html>"
  })).data
  const content = {
    title: "November at Example",
    content: "Hello {{ subscriber.first_name }},\n\nOur **winter collection** is here, and subscribers get early access.\n\n" +
      "[See the collection](https://example.com/winter)\n\nRead [the story behind it](https://example.com/blog/winter) on our blog."
  }
  const campaign = (await api("POST", "/campaigns", { name: "November newsletter", email_list_uuid: list.uuid, subject: "Winter is here, {{ subscriber.first_name }}", template_uuid: template.uuid, fields: content })).data
  const before = smtp.received.length
  await api("POST", `/campaigns/${campaign.uuid}/send`)
  await smtp.waitFor(before + 241, 60_000)
  for (let i = 0; i < 100; i++) {
    if ((await api("GET", `/campaigns/${campaign.uuid}`)).data.status === "sent") break
    await sleep(200)
  }
  const mails = smtp.received.slice(before)
  for (const [i, mail] of mails.entries()) {
    const links = trackedLinks(mail.raw, url)
    if (i % 2 === 0 && links.open) await fetch(links.open)
    if (i % 5 === 0 && links.clicks[0]) await fetch(links.clicks[0], { redirect: "manual" })
    if (i % 9 === 0 && links.clicks[1]) await fetch(links.clicks[1], { redirect: "manual" })
  }
  const draft = (await api("POST", "/campaigns", { name: "December newsletter", email_list_uuid: list.uuid, subject: "Season's greetings", template_uuid: template.uuid, fields: { title: "Happy holidays", content: "Hello {{ subscriber.first_name }},\n\nThank you for this year." } })).data
  const transactionalTemplate = (await api("POST", "/transactional-mails/templates", { name: "order-shipped", subject: "Your order {{ order }} is on its way", html: "<p>Hi {{ name }}, order <b>{{ order }}</b> has shipped.</p>", type: "html" })).data
  const sent = await api("POST", "/transactional-mails/send", { mail_name: "order-shipped", from: "shop@example.com", to: "ada@example.com", replacements: { name: "Ada", order: "#1042" } })
  const automationMail = (await api("POST", "/automation-mails", { name: "Welcome", subject: "Welcome, {{ subscriber.first_name }}!", from_email: "news@example.com", html: "<p>Welcome aboard, {{ subscriber.first_name }}.</p>" })).data
  const followUp = (await api("POST", "/automation-mails", { name: "Getting started tips", subject: "Three tips to start", from_email: "news@example.com", html: "<p>Here are three tips.</p>" })).data
  const automation = (await api("POST", "/automations", {
    name: "Welcome series",
    email_list_uuid: list.uuid,
    trigger: { type: "subscribed" },
    actions: [
      { type: "send_mail", automation_mail_uuid: automationMail.uuid },
      { type: "wait", length: 2, unit: "days" },
      {
        type: "condition",
        condition: { type: "opened", automation_mail_uuid: automationMail.uuid },
        window: { length: 1, unit: "days" },
        yes: [{ type: "add_tags", tags: ["engaged"] }],
        no: [{ type: "send_mail", automation_mail_uuid: followUp.uuid }]
      }
    ]
  })).data
  await api("POST", `/automations/${automation.uuid}/start`)
  for (const name of ["Mia", "Noah", "Olga"]) {
    await api("POST", `/email-lists/${list.uuid}/subscribers`, { email: `${name.toLowerCase()}@example.com`, first_name: name, skip_confirmation: true })
  }
  const webhook = (await api("POST", "/webhooks", { name: "CRM sync", url: "https://crm.example.com/hooks/mailroom", events: ["subscriber.created", "subscriber.unsubscribed", "mail.bounced"], enabled: true })).data
  await api("POST", "/suppressions", { email: "bounced@example.org", reason: "hard_bounce" })
  await api("POST", "/suppressions", { email: "complaint@example.org", reason: "spam_complaint" })
  await api("POST", "/tokens", { name: "website sign-up form", abilities: ["write"] })
  await api("POST", "/tokens", { name: "dashboards", abilities: ["read"] })
  return {
    list: list.uuid,
    subscriber: subscriber.uuid,
    campaign: campaign.uuid,
    draft: draft.uuid,
    template: template.uuid,
    importId: started.id,
    transactionalTemplate: transactionalTemplate.uuid,
    transactionalMail: sent.uuid,
    automation: automation.uuid,
    automationMail: automationMail.uuid,
    webhook: webhook.uuid
  }
}
