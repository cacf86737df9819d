/** What an operation's OpenAPI entry adds to what HttpApi derives from its schemas. */
export interface OperationDocs {
  /** An example request body (validated against the body schema by the OpenAPI lint). */
  readonly example?: Record<string, unknown>
  /** Declares 200 with the same body as 201: the resource existed already and is answered as it is. */
  readonly existing?: string
}

/** An `OpenApi.Transform` for one operation: its request body example and its 200-when-it-existed answer. */
export const operationDocs = (docs: OperationDocs) => (operation: Record<string, any>): Record<string, any> => {
  const json = operation["requestBody"]?.["content"]?.["application/json"] as Record<string, unknown> | undefined
  if (docs.example !== undefined && json !== undefined) json["example"] = docs.example
  const created = operation["responses"]?.["201"] as Record<string, unknown> | undefined
  if (docs.existing !== undefined && created !== undefined) {
    operation["responses"]["200"] = { ...created, description: docs.existing }
    created["description"] = "Created."
  }
  return operation
}
