import { Context } from "effect"
import { escapeHtml } from "../domain/Html.js"

/**
 * Converts Markdown template fields (`[[[content:markdown]]]`) to HTML. The default keeps paragraphs only;
 * the server provides a full CommonMark renderer.
 */
export class MarkdownRenderer extends Context.Reference<MarkdownRenderer>()("@mailroom/MarkdownRenderer", {
  defaultValue: () => (markdown: string): string =>
    markdown.split(/\n{2,}/).map((block) => block.trim()).filter(Boolean).map((block) => `<p>${escapeHtml(block)}</p>`)
      .join("\n")
}) {}
