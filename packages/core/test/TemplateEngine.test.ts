import { describe, expect, it } from "@effect/vitest"
import { compileRender, type Escaping, parseTemplate, renderTemplate } from "@mailroom/core"
import { Drop } from "liquidjs"

class Greeting extends Drop {
  override liquidMethodMissing(key: string): string {
    return `drop:${key}`
  }
}

const scope = {
  subscriber: {
    first_name: `Zoë <b>"O'Hara"</b> & co`,
    last_name: "",
    count: 42,
    ratio: 0.5,
    vip: true,
    missing: null,
    tags: ["a", "b"],
    nested: { deep: { value: "ok" } },
    size: "custom size",
    extra_attributes: Object.assign(Object.create({ inherited: "no" }) as object, { own: "yes" })
  },
  list: { name: "Readers" },
  drop: new Greeting(),
  fn: () => "called"
}

const sources = [
  "Hello {{ subscriber.first_name }}!",
  "{{subscriber.last_name}}|{{ subscriber.count }}|{{ subscriber.ratio }}|{{ subscriber.vip }}|{{ subscriber.missing }}",
  "{{ subscriber.unknown }}{{ unknown.path.here }}{{ list.name.more }}",
  "{{ subscriber.tags }} {{ subscriber.nested }} {{ subscriber.nested.deep.value }}",
  "{{ subscriber.size }} {{ subscriber.tags.size }} {{ subscriber.first_name.size }} {{ subscriber.tags.first }}",
  "{{ subscriber.extra_attributes.own }}/{{ subscriber.extra_attributes.inherited }}/{{ subscriber.constructor }}",
  "{{ drop.anything }} {{ fn }}",
  "{{ subscriber.first_name | upcase }} {% if subscriber.vip %}vip{% endif %}",
  "https://example.org/p?e={{ subscriber.first_name }}&n={{ subscriber.count }}"
]

describe("compileRender", () => {
  for (const escaping of ["html", "raw"] as ReadonlyArray<Escaping>) {
    it(`renders exactly as Liquid does (${escaping}): plain values, nil, numbers, arrays, objects, Drops, special keys`, () => {
      for (const source of sources) {
        const parsed = parseTemplate(source, escaping)
        expect(compileRender(parsed)(scope), source).toBe(renderTemplate(parsed, scope))
      }
    })
  }

  it("escapes a plain value in html like Liquid's escape, and leaves it raw otherwise", () => {
    const html = compileRender(parseTemplate("<p>{{ subscriber.first_name }}</p>", "html"))(scope)
    expect(html).toBe("<p>Zoë &lt;b&gt;&#34;O&#39;Hara&#34;&lt;/b&gt; &amp; co</p>")
    expect(compileRender(parseTemplate("{{ subscriber.first_name }}", "raw"))(scope)).toBe(scope.subscriber.first_name)
  })
})
