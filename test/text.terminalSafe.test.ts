import { describe, expect, it } from "vitest";
import { terminalSafe, terminalSafeLines } from "../src/text.js";

describe("terminalSafe: nothing from config or hook output acts on the terminal", () => {
  it("names C0 controls, DEL and C1 controls", () => {
    expect(terminalSafe("a\r\x1b[2Kb\x00\x07\x08\x7f")).toBe("a⟨CR⟩⟨ESC⟩[2Kb⟨NUL⟩⟨BEL⟩⟨BS⟩⟨DEL⟩");
    expect(terminalSafe("\u009b2J\u0085")).toBe("⟨U+009B⟩2J⟨U+0085⟩");
    expect(terminalSafe("x\ty\nz")).toBe("x⟨TAB⟩y⟨LF⟩z");
  });

  it("names OSC 52 (clipboard write) so it is shown, not run", () => {
    const osc = "\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07";
    expect(terminalSafe(osc)).toBe("⟨ESC⟩]52;c;Y3VybCBldmlsIHwgc2g=⟨BEL⟩");
  });

  it("names bidi overrides and isolates, zero-width and other invisible characters", () => {
    for (const c of ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u061c", "\u200e", "\u200f"]) {
      expect(terminalSafe(`a${c}b`)).toBe(`a⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩b`);
    }
    for (const c of ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u2028", "\u2029", "\u3164", "\u{e0041}", "\u{e0100}"]) {
      expect(terminalSafe(c)).toMatch(/^⟨U\+[0-9A-F]{4,5}⟩$/);
    }
    expect(terminalSafe("\ud800")).toBe("⟨U+D800⟩"); // a lone surrogate
  });

  it("keeps printable text, non-ASCII letters and emoji as they are", () => {
    const text = "npm run lint && echo 'é 日本 👍' | grep -E '^a\\\\r$'";
    expect(terminalSafe(text)).toBe(text);
  });

  it("escapes its own opening bracket, so a literal ⟨CR⟩ cannot pass for a carriage return", () => {
    expect(terminalSafe("⟨CR⟩")).toBe("⟨U+27E8⟩CR⟩");
    expect(terminalSafe("\r")).not.toBe(terminalSafe("⟨CR⟩"));
  });

  it("keeps tabs and line breaks only when asked", () => {
    expect(terminalSafe("a\tb\nc\rd", { keepTabs: true, keepNewlines: true })).toBe("a\tb\nc⟨CR⟩d");
    expect(terminalSafe("a\tb\nc", { keepNewlines: true })).toBe("a⟨TAB⟩b\nc");
    expect(terminalSafe("a\tb\nc", { keepTabs: true })).toBe("a\tb⟨LF⟩c");
  });

  it("terminalSafeLines splits hook output into escaped lines; CRLF is one break, a lone CR is shown", () => {
    expect(terminalSafeLines("one\r\ntwo\rtwo'\n\x1b[31mred\t!")).toEqual(["one", "two⟨CR⟩two'", "⟨ESC⟩[31mred\t!"]);
  });

  it("escapes every C0 control and DEL among plain ASCII under each option, keeping only the LF or TAB asked for", () => {
    for (const [options, kept] of [
      [{}, ""],
      [{ keepNewlines: true }, "\n"],
      [{ keepTabs: true }, "\t"],
      [{ keepNewlines: true, keepTabs: true }, "\n\t"],
    ] as const) {
      for (let code = 0; code < 0x80; code++) {
        const c = String.fromCharCode(code);
        const printable = (code >= 0x20 && code < 0x7f) || kept.includes(c);
        expect(terminalSafe(`plain ${c} text`, options), `U+${code.toString(16)} ${JSON.stringify(options)}`).toBe(printable ? `plain ${c} text` : `plain ${terminalSafe(c)} text`);
        if (!printable) expect(terminalSafe(c, options)).toMatch(/^⟨.+⟩$/);
      }
    }
  });
});
