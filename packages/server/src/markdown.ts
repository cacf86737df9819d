import { MarkdownRenderer } from "@mailroom/core"
import { Layer } from "effect"
import { marked } from "marked"

/** Markdown template fields rendered as CommonMark/GFM HTML with `marked`. */
export const MarkedRenderer = Layer.succeed(MarkdownRenderer, (markdown: string) => marked.parse(markdown, { async: false }))
