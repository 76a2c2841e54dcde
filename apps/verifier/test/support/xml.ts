/** A small well-formedness check: tags balance and nest, attributes are quoted (tests only). */
export function assertWellFormedXml(text: string): void {
  const body = text.replace(/^<\?xml[^>]*\?>\s*/, "").replace(/<!--[\s\S]*?-->/g, "");
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.:-]+="[^"<]*")*)\s*(\/?)>|<|>/g;
  for (const m of body.matchAll(tag)) {
    if (m[2] === undefined)
      throw new Error(
        `stray "${m[0]}" at ${m.index}: ${body.slice((m.index ?? 0) - 40, (m.index ?? 0) + 40)}`,
      );
    if (m[4] === "/") continue;
    if (m[1] === "/") {
      const open = stack.pop();
      if (open !== m[2]) throw new Error(`</${m[2]}> closes <${open}>`);
    } else stack.push(m[2]);
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.join("> <")}>`);
}
