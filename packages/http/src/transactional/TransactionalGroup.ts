import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  SendTransactionalMailInput,
  TransactionalMailCollection,
  TransactionalTemplateCollection,
  TransactionalTemplateInput
} from "@mailroom/core"
import { Schema } from "effect"
import { InvalidQueryError, MailSuppressedError, NotFoundError, ValidationFailedError } from "../ApiErrors.js"
import { Authorization } from "../Authorization.js"
import { allErrors, Collection, collectionParams, Data } from "../Collection.js"
import { TransactionalMailResource } from "./TransactionalMailResource.js"
import { TransactionalTemplateResource } from "./TransactionalTemplateResource.js"
import { operationDocs } from "../operationDocs.js"

const TemplatePath = Schema.Struct({ template: Schema.String.annotations({ description: "The template's uuid." }) })
const MailPath = Schema.Struct({ mail: Schema.String.annotations({ description: "The logged mail's uuid." }) })

/** The answer of a stored send: the log item's uuid. */
const SentMail = Schema.Struct({ uuid: Schema.UUID }).annotations({ identifier: "SentTransactionalMail" })

/** The answer of a render: what the mail would be. */
const RenderedMail = Schema.Struct({ subject: Schema.String, html: Schema.String, text: Schema.String })
  .annotations({ identifier: "RenderedTransactionalMail" })

/** /api/transactional-mails: templates, send, render (a dry run), the log and resend. */
export class TransactionalGroup extends HttpApiGroup.make("transactionalMails")
  .add(
    HttpApiEndpoint.get("listTemplates", "/transactional-mails/templates")
      .annotate(OpenApi.Summary, "List transactional templates")
      .setUrlParams(collectionParams(TransactionalTemplateCollection))
      .addSuccess(Collection(TransactionalTemplateResource))
      .addError(InvalidQueryError)
  )
  .add(
    HttpApiEndpoint.post("createTemplate", "/transactional-mails/templates")
      .annotate(OpenApi.Summary, "Create a transactional template")
      .setPayload(allErrors(TransactionalTemplateInput))
      .addSuccess(Data(TransactionalTemplateResource), { status: 201 })
      .addError(ValidationFailedError)
  )
  .add(
    HttpApiEndpoint.get("getTemplate", "/transactional-mails/templates/:template")
      .annotate(OpenApi.Summary, "Get a transactional template")
      .setPath(TemplatePath)
      .addSuccess(Data(TransactionalTemplateResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.put("updateTemplate", "/transactional-mails/templates/:template")
      .annotate(OpenApi.Summary, "Update a transactional template")
      .setPath(TemplatePath)
      .setPayload(allErrors(TransactionalTemplateInput))
      .addSuccess(Data(TransactionalTemplateResource))
      .addError(NotFoundError)
      .addError(ValidationFailedError)
  )
  .add(
    HttpApiEndpoint.del("deleteTemplate", "/transactional-mails/templates/:template")
      .annotate(OpenApi.Summary, "Delete a transactional template")
      .setPath(TemplatePath)
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.post("send", "/transactional-mails/send")
      .annotate(OpenApi.Summary, "Send a transactional mail")
      .setPayload(allErrors(SendTransactionalMailInput))
      .annotate(OpenApi.Transform, operationDocs({
        example: {
          from: "Shop <shop@example.com>",
          to: "ada@example.com",
          subject: "Your order {{ order.number }}",
          html: "<p>Thanks, {{ order.name }}!</p>",
          replacements: { order: { number: "1042", name: "Ada" } }
        }
      }))
      .addSuccess(SentMail)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(MailSuppressedError)
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "Queues the mail durably and answers; workers deliver it. 204 with `store: false`.")
  )
  .add(
    HttpApiEndpoint.post("render", "/transactional-mails/render")
      .annotate(OpenApi.Summary, "Render a transactional mail without sending")
      .setPayload(allErrors(SendTransactionalMailInput))
      .addSuccess(Data(RenderedMail))
      .addError(ValidationFailedError)
      .annotate(OpenApi.Description, "A dry run of `send` with the same body: the subject, html and text, nothing sent or stored.")
  )
  .add(
    HttpApiEndpoint.get("listMails", "/transactional-mails")
      .annotate(OpenApi.Summary, "List sent transactional mails")
      .setUrlParams(collectionParams(TransactionalMailCollection))
      .addSuccess(Collection(TransactionalMailResource))
      .addError(InvalidQueryError)
  )
  .add(
    HttpApiEndpoint.get("getMail", "/transactional-mails/:mail")
      .annotate(OpenApi.Summary, "Get a sent transactional mail")
      .setPath(MailPath)
      .addSuccess(Data(TransactionalMailResource))
      .addError(NotFoundError)
  )
  .add(
    HttpApiEndpoint.post("resend", "/transactional-mails/:mail/resend")
      .annotate(OpenApi.Summary, "Resend a transactional mail")
      .setPath(MailPath)
      .addError(NotFoundError)
      .addError(MailSuppressedError)
  )
  .middleware(Authorization)
  .prefix("/api")
  .annotate(
    OpenApi.Description,
    "Mails an application sends itself (password resets, receipts): stored templates, send, a dry-run render, the log and resend. A token with only the `send` ability may call `send`."
  )
{}
