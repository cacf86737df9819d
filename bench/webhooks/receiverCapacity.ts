/**
 * The webhook receiver's capacity, measured in the same run as the benchmark: a bare loop with no Mailroom in it POSTs
 * `count` signed `mail.sent`-sized deliveries to the receiver the way Mailroom's transport does (node:http with kept-alive
 * connections, the standard-webhooks headers, `concurrency` in flight). Deliveries per second: what no dispatcher could
 * beat against this receiver on this machine.
 */
import { Agent, request } from "node:http"
import { Webhook } from "standardwebhooks"

/** A delivery's body, the size of a `mail.sent` event's. */
const bodyOf = (i: number) => JSON.stringify({
  type: "mail.sent",
  timestamp: new Date().toISOString(),
  data: {
    send_uuid: `0193a1b2-c3d4-7e5f-8a9b-${i.toString(16).padStart(12, "0")}`,
    campaign_uuid: "0193a1b2-c3d4-7e5f-8a9b-000000000001",
    subscriber_uuid: `0193a1b2-c3d4-7e5f-9a9b-${i.toString(16).padStart(12, "0")}`,
    email: `user${i}@example.com`,
    email_list_uuid: "0193a1b2-c3d4-7e5f-8a9b-000000000002"
  }
})

/** Deliveries per second the receiver at `port` takes from a bare client (`/in`, one webhook-id each). */
export const receiverCapacity = async (port: number, options: { readonly count: number; readonly concurrency: number }): Promise<number> => {
  const agent = new Agent({ keepAlive: true })
  const signer = new Webhook(Buffer.from("bench-receiver-capacity").toString("base64"))
  const post = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const id = `capacity_${i}`
      const timestamp = new Date()
      const body = bodyOf(i)
      const call = request({ host: "127.0.0.1", port, path: "/in", method: "POST", agent, headers: {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
        "webhook-signature": signer.sign(id, timestamp, body)
      } }, (response) => {
        response.resume()
        response.on("end", () => (response.statusCode === 204 ? resolve() : reject(new Error(`receiver answered ${response.statusCode}`))))
      })
      call.on("error", reject)
      call.end(body)
    })
  let next = 0
  const start = performance.now()
  await Promise.all(Array.from({ length: options.concurrency }, async () => {
    for (let i = next++; i < options.count; i = next++) await post(i)
  }))
  const seconds = (performance.now() - start) / 1000
  agent.destroy()
  return options.count / seconds
}
