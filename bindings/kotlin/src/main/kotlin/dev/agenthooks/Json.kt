package dev.agenthooks

/**
 * A JSON number kept as its text, so values cross to the core (and back)
 * exactly as written: the core parses them, not the JVM.
 */
@JvmInline
value class JsonNumber(val text: String) {
    override fun toString(): String = text
}

/**
 * Minimal JSON for the binding: values are `null`, `Boolean`, `String`,
 * [JsonNumber] (or any Kotlin `Number` when writing), `List<Any?>` and
 * `Map<String, Any?>` (insertion order kept). Parsing is strict RFC 8259
 * with a nesting limit; errors are [AgentHooksError] with code `invalid_json`.
 */
object Json {
    /** Nesting deeper than this is refused (the core's limit is lower). */
    const val MAX_DEPTH = 512

    fun parse(text: String): Any? {
        val p = Parser(text)
        p.ws()
        val v = p.value(0)
        p.ws()
        if (p.i != text.length) p.fail("trailing characters")
        return v
    }

    fun write(v: Any?): String = StringBuilder().also { write(it, v) }.toString()

    fun write(sb: StringBuilder, v: Any?) {
        when (v) {
            null -> sb.append("null")
            is Boolean -> sb.append(if (v) "true" else "false")
            is String -> quote(sb, v)
            is JsonNumber -> sb.append(v.text)
            is Double -> {
                require(v.isFinite()) { "JSON has no $v" }
                sb.append(v.toString())
            }
            is Float -> {
                require(v.isFinite()) { "JSON has no $v" }
                sb.append(v.toString())
            }
            is Number -> sb.append(v.toString())
            is Map<*, *> -> {
                sb.append('{')
                var first = true
                for ((k, x) in v) {
                    if (!first) sb.append(',')
                    first = false
                    quote(sb, k as? String ?: throw IllegalArgumentException("JSON object keys are strings"))
                    sb.append(':')
                    write(sb, x)
                }
                sb.append('}')
            }
            is Iterable<*> -> {
                sb.append('[')
                var first = true
                for (x in v) {
                    if (!first) sb.append(',')
                    first = false
                    write(sb, x)
                }
                sb.append(']')
            }
            is Array<*> -> write(sb, v.asList())
            else -> throw IllegalArgumentException("not a JSON value: ${v::class.simpleName}")
        }
    }

    fun quote(s: String): String = StringBuilder().also { quote(it, s) }.toString()

    private fun quote(sb: StringBuilder, s: String) {
        sb.append('"')
        for (c in s) {
            when (c) {
                '"' -> sb.append("\\\"")
                '\\' -> sb.append("\\\\")
                '\n' -> sb.append("\\n")
                '\r' -> sb.append("\\r")
                '\t' -> sb.append("\\t")
                '\b' -> sb.append("\\b")
                '\u000C' -> sb.append("\\f")
                else -> if (c < ' ') sb.append(String.format("\\u%04x", c.code)) else sb.append(c)
            }
        }
        sb.append('"')
    }

    /** Structural equality; numbers compare by value (`1` == `1.0` is false, as in serde_json). */
    fun same(a: Any?, b: Any?): Boolean = when {
        a is JsonNumber && b is JsonNumber -> numberEq(a.text, b.text)
        a is Map<*, *> && b is Map<*, *> -> a.size == b.size && a.all { (k, v) -> b.containsKey(k) && same(v, b[k]) }
        a is List<*> && b is List<*> -> a.size == b.size && a.indices.all { same(a[it], b[it]) }
        else -> a == b
    }

    private fun isInt(t: String) = t.none { it == '.' || it == 'e' || it == 'E' }

    private fun numberEq(a: String, b: String): Boolean {
        if (a == b) return true
        if (isInt(a) != isInt(b)) return false
        return if (isInt(a)) a.toBigInteger() == b.toBigInteger() else a.toDouble() == b.toDouble()
    }

    private class Parser(val s: String) {
        var i = 0

        fun fail(what: String): Nothing = throw AgentHooksError("invalid_json", "JSON: $what at offset $i")

        fun ws() {
            while (i < s.length && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) i++
        }

        fun value(depth: Int): Any? {
            if (depth > MAX_DEPTH) fail("nesting deeper than $MAX_DEPTH")
            if (i >= s.length) fail("unexpected end")
            return when (s[i]) {
                '{' -> obj(depth)
                '[' -> arr(depth)
                '"' -> str()
                't' -> lit("true", true)
                'f' -> lit("false", false)
                'n' -> lit("null", null)
                else -> num()
            }
        }

        fun lit(word: String, v: Any?): Any? {
            if (!s.startsWith(word, i)) fail("unexpected character")
            i += word.length
            return v
        }

        fun obj(depth: Int): Map<String, Any?> {
            i++
            val m = LinkedHashMap<String, Any?>()
            ws()
            if (i < s.length && s[i] == '}') { i++; return m }
            while (true) {
                ws()
                if (i >= s.length || s[i] != '"') fail("expected a key")
                val k = str()
                ws()
                if (i >= s.length || s[i] != ':') fail("expected ':'")
                i++
                ws()
                m[k] = value(depth + 1)
                ws()
                if (i >= s.length) fail("unexpected end")
                when (s[i]) {
                    ',' -> i++
                    '}' -> { i++; return m }
                    else -> fail("expected ',' or '}'")
                }
            }
        }

        fun arr(depth: Int): List<Any?> {
            i++
            val l = ArrayList<Any?>()
            ws()
            if (i < s.length && s[i] == ']') { i++; return l }
            while (true) {
                ws()
                l.add(value(depth + 1))
                ws()
                if (i >= s.length) fail("unexpected end")
                when (s[i]) {
                    ',' -> i++
                    ']' -> { i++; return l }
                    else -> fail("expected ',' or ']'")
                }
            }
        }

        fun str(): String {
            i++
            val sb = StringBuilder()
            while (true) {
                if (i >= s.length) fail("unterminated string")
                val c = s[i++]
                when {
                    c == '"' -> return sb.toString()
                    c == '\\' -> {
                        if (i >= s.length) fail("unterminated escape")
                        when (val e = s[i++]) {
                            '"' -> sb.append('"')
                            '\\' -> sb.append('\\')
                            '/' -> sb.append('/')
                            'b' -> sb.append('\b')
                            'f' -> sb.append('\u000C')
                            'n' -> sb.append('\n')
                            'r' -> sb.append('\r')
                            't' -> sb.append('\t')
                            'u' -> {
                                if (i + 4 > s.length) fail("short \\u escape")
                                val h = s.substring(i, i + 4).toIntOrNull(16) ?: fail("bad \\u escape")
                                sb.append(h.toChar())
                                i += 4
                            }
                            else -> fail("bad escape \\$e")
                        }
                    }
                    c < ' ' -> fail("control character in string")
                    else -> sb.append(c)
                }
            }
        }

        fun num(): JsonNumber {
            val start = i
            if (i < s.length && s[i] == '-') i++
            if (i >= s.length) fail("bad number")
            if (s[i] == '0') i++ else if (s[i] in '1'..'9') { while (i < s.length && s[i].isAsciiDigit()) i++ } else fail("unexpected character")
            if (i < s.length && s[i] == '.') {
                i++
                if (i >= s.length || !s[i].isAsciiDigit()) fail("bad fraction")
                while (i < s.length && s[i].isAsciiDigit()) i++
            }
            if (i < s.length && (s[i] == 'e' || s[i] == 'E')) {
                i++
                if (i < s.length && (s[i] == '+' || s[i] == '-')) i++
                if (i >= s.length || !s[i].isAsciiDigit()) fail("bad exponent")
                while (i < s.length && s[i].isAsciiDigit()) i++
            }
            return JsonNumber(s.substring(start, i))
        }

        private fun Char.isAsciiDigit() = this in '0'..'9'
    }
}
