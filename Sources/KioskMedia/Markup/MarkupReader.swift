internal import CLibXML2
import Foundation
import KioskCore

/// Why a markup file could not be read: one line, `FILE:LINE: reason` (or `FILE: reason` without a line).
public struct MarkupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as named.
    public var file: String
    /// 1-based line, when the parser knew it.
    public var line: Int?
    /// What is wrong.
    public var reason: String
    /// `FILE:LINE: reason`.
    public var description: String { line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)" }
}

/// Reads XML with libxml2 into a `MarkupElement` tree, safely: the file is read through `LocalFile` (so
/// `--media-root` confines it) and refused past `maxBytes`; a document with a DOCTYPE is refused before it is
/// parsed (no DTD is loaded and no entity expanded, so neither billion laughs nor external entities can
/// happen); libxml2 never touches the network (`XML_PARSE_NONET`) and prints nothing (its errors become the
/// thrown line); nesting deeper than `maxDepth` is refused.
public enum MarkupReader {
    /// The largest file read: 4 MiB (a layout of thousands of media is a few hundred KiB).
    public static let maxBytes = 4 * 1024 * 1024
    /// The deepest nesting of elements accepted.
    public static let maxDepth = 64
    /// The most attributes one start tag may have (a SMIL element reads a few dozen; a photo editor's XMP
    /// `rdf:Description` holds a few hundred). libxml2 2.9 checks each attribute against every one before it, and
    /// adds each to the tree at the end of a list it walks: a tag of n attributes costs n² (100,000 took 16 s or
    /// more), so a tag with more is refused before libxml2 sees it, and reading stays linear in the file's size.
    public static let maxAttributes = 1024

    /// The root element of the file at `path` (named `name` in errors).
    public static func read(file path: String, name: String? = nil) throws(MarkupError) -> MarkupElement {
        let shown = name ?? path
        let bytes: [UInt8]
        do {
            let size = try FileBytes.size(path)
            guard size <= maxBytes else { throw MarkupError(file: shown, line: nil, reason: "larger than \(maxBytes / 1024 / 1024) MiB (\(size) bytes)") }
            bytes = try FileBytes.read(path, count: maxBytes + 1)
        } catch let e as MarkupError {
            throw e
        } catch {
            throw MarkupError(file: shown, line: nil, reason: Self.reason(error, path: path))
        }
        guard bytes.count <= maxBytes else { throw MarkupError(file: shown, line: nil, reason: "grew past \(maxBytes / 1024 / 1024) MiB while read") }
        return try parse(bytes, file: shown)
    }

    /// The root element of `bytes`, a document named `file` in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(MarkupError) -> MarkupElement {
        if let line = doctypeLine(bytes) {
            throw MarkupError(file: file, line: line, reason: "a DOCTYPE (DTDs and entities are not read)")
        }
        guard !bytes.isEmpty else { throw MarkupError(file: file, line: nil, reason: "empty") }
        if let line = crowdedTagLine(bytes, most: maxAttributes) {
            throw MarkupError(file: file, line: line, reason: "a start tag with more than \(maxAttributes) attributes")
        }
        guard let context = xmlNewParserCtxt() else { throw MarkupError(file: file, line: nil, reason: "libxml2 could not start") }
        defer { xmlFreeParserCtxt(context) }
        // libxml2 reports every error it meets (a mismatched tag, then "premature end"): the first one is the cause
        let first = FirstError()
        context.pointee._private = Unmanaged.passUnretained(first).toOpaque()
        context.pointee.sax?.pointee.serror = { user, error in
            guard let user, let error else { return }
            let ctxt = user.assumingMemoryBound(to: xmlParserCtxt.self)
            guard let box = ctxt.pointee._private else { return }
            let found = Unmanaged<FirstError>.fromOpaque(box).takeUnretainedValue()
            guard found.line == nil else { return }
            found.line = Int(error.pointee.line)
            found.message = error.pointee.message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                            | XML_PARSE_NOCDATA.rawValue)
        let doc = bytes.withUnsafeBufferPointer { buf in
            buf.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buf.count) {
                    xmlCtxtReadMemory(context, $0, Int32(buf.count), nil, nil, options)
                }
            }
        }
        guard let doc else {
            guard let line = first.line else { throw lastError(context, file: file) }
            throw MarkupError(file: file, line: line > 0 ? line : nil, reason: "not well-formed XML: \(first.message ?? "parse error")")
        }
        defer { xmlFreeDoc(doc) }
        guard let root = xmlDocGetRootElement(doc) else { throw MarkupError(file: file, line: nil, reason: "no root element") }
        return try element(root, depth: 1, file: file)
    }

    /// The first error libxml2 reported while parsing.
    private final class FirstError {
        var line: Int?
        var message: String?
    }

    /// The line of a `<!DOCTYPE` or `<!ENTITY` outside comments and CDATA, if any (a cheap scan before parsing).
    static func doctypeLine(_ bytes: [UInt8]) -> Int? {
        let marks = [Array("<!DOCTYPE".utf8), Array("<!ENTITY".utf8)]
        let comment = Array("<!--".utf8), commentEnd = Array("-->".utf8)
        let cdata = Array("<![CDATA[".utf8), cdataEnd = Array("]]>".utf8)
        var i = 0, line = 1
        func at(_ word: [UInt8]) -> Bool {
            i + word.count <= bytes.count && zip(word, bytes[i..<(i + word.count)]).allSatisfy { $0 == $1 }
        }
        func skip(to end: [UInt8]) {
            while i < bytes.count && !at(end) { if bytes[i] == 0x0a { line += 1 }; i += 1 }
            i += end.count
        }
        while i < bytes.count {
            if bytes[i] == 0x0a { line += 1 }
            if bytes[i] == UInt8(ascii: "<") {
                if at(comment) { skip(to: commentEnd); continue }
                if at(cdata) { skip(to: cdataEnd); continue }
                if marks.contains(where: at) { return line }
            }
            i += 1
        }
        return nil
    }

    /// The line of the first start tag with more than `most` attributes (counted as the `=` outside quoted
    /// values, comments, CDATA and processing instructions), if any: one pass over the bytes.
    static func crowdedTagLine(_ bytes: [UInt8], most: Int) -> Int? {
        let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), eq = UInt8(ascii: "="), nl = UInt8(ascii: "\n")
        let quotes: Set<UInt8> = [UInt8(ascii: "\""), UInt8(ascii: "'")]
        let skips: [(open: [UInt8], close: [UInt8])] = [(Array("<!--".utf8), Array("-->".utf8)),
                                                        (Array("<![CDATA[".utf8), Array("]]>".utf8)),
                                                        (Array("<?".utf8), Array("?>".utf8))]
        var i = 0, line = 1
        func at(_ word: [UInt8]) -> Bool {
            i + word.count <= bytes.count && zip(word, bytes[i..<(i + word.count)]).allSatisfy { $0 == $1 }
        }
        outer: while i < bytes.count {
            let b = bytes[i]
            if b == nl { line += 1 }
            guard b == lt else { i += 1; continue }
            for (open, close) in skips where at(open) {
                i += open.count
                while i < bytes.count && !at(close) { if bytes[i] == nl { line += 1 }; i += 1 }
                i += close.count
                continue outer
            }
            // a start tag (or an end tag, or a declaration: they have no '=' outside quotes in a well-formed file)
            let tagLine = line
            var count = 0, quote: UInt8?
            i += 1
            while i < bytes.count {
                let c = bytes[i]
                if c == nl { line += 1 }
                if let q = quote {
                    if c == q { quote = nil }
                } else if quotes.contains(c) {
                    quote = c
                } else if c == eq {
                    count += 1
                    if count > most { return tagLine }
                } else if c == gt || c == lt {
                    break
                }
                i += 1
            }
            if i < bytes.count && bytes[i] == gt { i += 1 }
        }
        return nil
    }

    private static func lastError(_ context: xmlParserCtxtPtr, file: String) -> MarkupError {
        guard let e = xmlCtxtGetLastError(context) else { return MarkupError(file: file, line: nil, reason: "not well-formed XML") }
        let message = e.pointee.message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines)
        let line = Int(e.pointee.line)
        return MarkupError(file: file, line: line > 0 ? line : nil, reason: "not well-formed XML: \(message ?? "parse error")")
    }

    private static func element(_ node: xmlNodePtr, depth: Int, file: String) throws(MarkupError) -> MarkupElement {
        let line = Int(xmlGetLineNo(node))
        guard depth <= maxDepth else {
            throw MarkupError(file: file, line: line > 0 ? line : nil, reason: "elements nested deeper than \(maxDepth)")
        }
        var out = MarkupElement(name: string(node.pointee.name) ?? "", namespace: node.pointee.ns.flatMap { string($0.pointee.href) },
                                line: max(1, line))
        var attribute = node.pointee.properties
        while let a = attribute {
            let value = xmlNodeListGetString(node.pointee.doc, a.pointee.children, 1)
            defer { kiosk_xml_free(value) }
            out.attributes.append(MarkupElement.Attribute(name: string(a.pointee.name) ?? "", namespace: a.pointee.ns.flatMap { string($0.pointee.href) },
                                                          value: string(value) ?? ""))
            attribute = a.pointee.next
        }
        var child = node.pointee.children
        while let c = child {
            switch c.pointee.type {
            case XML_ELEMENT_NODE: out.children.append(try element(c, depth: depth + 1, file: file))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE: out.text += string(c.pointee.content) ?? ""
            default: break
            }
            child = c.pointee.next
        }
        return out
    }

    private static func string(_ p: UnsafePointer<xmlChar>?) -> String? {
        p.map { String(decoding: UnsafeBufferPointer(start: $0, count: strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))), as: UTF8.self) }
    }

    private static func string(_ p: UnsafeMutablePointer<xmlChar>?) -> String? { string(UnsafePointer(p)) }

    private static func reason(_ error: Error, path: String) -> String {
        let text = "\(error)"
        return text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text
    }
}
