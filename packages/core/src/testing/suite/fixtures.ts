import type { Layer } from "effect"
import type {
  EmailListId,
  EmailListUuid,
  SegmentUuid,
  SubscriberUuid,
  SuppressionUuid,
  TagUuid,
  TemplateUuid
} from "../../domain/Ids.js"
import { newUuid } from "../../domain/Ids.js"
import type { Storage } from "../../usecases/Mailroom.js"
import type { NewEmailList } from "../../ports/EmailListRepository.js"
import type { NewJob } from "../../ports/JobQueue.js"
import type { NewSegment } from "../../ports/SegmentRepository.js"
import type { NewSubscriber } from "../../ports/SubscriberRepository.js"
import type { NewSuppression } from "../../ports/SuppressionRepository.js"
import type { NewTag } from "../../ports/TagRepository.js"
import type { NewTemplate } from "../../ports/TemplateRepository.js"
import type { TransactionalMailUuid } from "../../transactional/TransactionalIds.js"
import type { NewTransactionalMail } from "../../transactional/TransactionalMailRepository.js"

/** Builds a fresh, empty store for one test. */
export type MakeStorage = () => Layer.Layer<Storage, unknown>

/** A fixed instant plus `seconds`, so ordering by time is deterministic. */
export const at = (seconds: number): Date => new Date(Date.UTC(2026, 0, 1, 12, 0, 0) + seconds * 1000)

/** A template ready to insert. */
export const aTemplate = (overrides: Partial<NewTemplate> = {}): NewTemplate => ({
  uuid: newUuid() as TemplateUuid,
  name: "Newsletter",
  html: "<p>[[[content]]]</p>",
  structuredHtml: null,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

/** An email list ready to insert. */
export const anEmailList = (overrides: Partial<NewEmailList> = {}): NewEmailList => ({
  uuid: newUuid() as EmailListUuid,
  name: "Customers",
  activeSubscribersCount: 0,
  campaignsFeedEnabled: false,
  defaultFromEmail: "news@example.com",
  defaultFromName: "News",
  defaultReplyToEmail: "news@example.com",
  defaultReplyToName: "News",
  allowFormSubscriptions: false,
  honeypotField: null,
  redirectAfterSubscribed: null,
  redirectAfterAlreadySubscribed: null,
  redirectAfterSubscriptionPending: null,
  redirectAfterUnsubscribed: null,
  requiresConfirmation: false,
  confirmationMailableClass: null,
  campaignMailer: "default",
  automationMailer: "default",
  transactionalMailer: "default",
  reportRecipients: null,
  reportCampaignSent: false,
  reportCampaignSummary: false,
  reportEmailListSummary: false,
  emailListSummarySentAt: null,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

/** A suppression ready to insert. */
export const aSuppression = (overrides: Partial<NewSuppression> = {}): NewSuppression => ({
  uuid: newUuid() as SuppressionUuid,
  email: "someone@example.com",
  reason: "manual",
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

/** A user tag of the list, ready to insert. */
export const aTag = (emailListId: EmailListId, overrides: Partial<NewTag> = {}): NewTag => ({
  uuid: newUuid() as TagUuid,
  emailListId,
  name: "vip",
  type: "default",
  visibleInPreferences: false,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

/** A segment of the list without tag conditions, ready to insert. */
export const aSegment = (emailListId: EmailListId, overrides: Partial<NewSegment> = {}): NewSegment => ({
  uuid: newUuid() as SegmentUuid,
  emailListId,
  name: "Engaged",
  positiveTagIds: [],
  negativeTagIds: [],
  allPositiveTagsRequired: false,
  allNegativeTagsRequired: false,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

/** A subscribed (confirmed at `at(0)`) member of the list, ready to insert; emails are given normalized. */
export const aSubscriber = (emailListId: EmailListId, overrides: Partial<NewSubscriber> = {}): NewSubscriber => ({
  uuid: newUuid() as SubscriberUuid,
  emailListId,
  email: "someone@example.com",
  firstName: null,
  lastName: null,
  extraAttributes: {},
  subscribedAt: at(0),
  unsubscribedAt: null,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

/** A job due at `at(0)`, ready to enqueue. */
export const aJob = (overrides: Partial<NewJob> = {}): NewJob => ({
  kind: "test",
  payload: { n: 1 },
  runAt: at(0),
  ...overrides
})

/** A stored, untracked transactional mail to one address, ready to insert. */
export const aTransactionalMail = (overrides: Partial<NewTransactionalMail> = {}): NewTransactionalMail => ({
  uuid: newUuid() as TransactionalMailUuid,
  templateId: null,
  mailName: null,
  subject: "Receipt",
  from: { email: "shop@example.com", name: null },
  to: [{ email: "jane@example.com", name: null }],
  cc: [],
  bcc: [],
  replyTo: [],
  html: "<p>Thanks</p>",
  text: null,
  attachments: [],
  fake: false,
  stored: true,
  mailer: null,
  trackOpens: false,
  trackClicks: false,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})
