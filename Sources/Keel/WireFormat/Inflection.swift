/// English inflection for resource names, with the rules Rails uses for the common cases:
/// `note` → `notes`, `person` → `people`, `category` → `categories`, `TodoItem` →
/// `todo_item`.
enum Inflection {
    /// The snake_case singular resource name of a class: `TodoItem` → `todo_item`; a generic
    /// class's parameters and a nested type's outer names are dropped.
    static func resourceName(of type: Any.Type) -> String {
        var name = String(describing: type)
        if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
        if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
        return JSONKeyConversion.snakeCase(name)
    }

    /// The plural of a snake_case word; only its last word changes (`todo_item` →
    /// `todo_items`, `sales_person` → `sales_people`).
    static func pluralize(_ word: String) -> String {
        let lastWordStart = word.lastIndex(of: "_").map(word.index(after:)) ?? word.startIndex
        let prefix = word[..<lastWordStart]
        let last = String(word[lastWordStart...])
        let lower = last.lowercased()
        guard !lower.isEmpty, !uncountable.contains(lower) else { return word }
        if let plural = irregular[lower] { return prefix + plural }
        for (suffix, replacement) in suffixRules where lower.hasSuffix(suffix) {
            return prefix + last.dropLast(suffix.count) + replacement
        }
        return prefix + last + "s"
    }

    /// The singular of a plural word, undoing ``pluralize(_:)`` for the common cases
    /// (`invites` → `invite`, `people` → `person`, `categories` → `category`).
    static func singularize(_ word: String) -> String {
        let lastWordStart = word.lastIndex(of: "_").map(word.index(after:)) ?? word.startIndex
        let prefix = word[..<lastWordStart]
        let last = String(word[lastWordStart...])
        let lower = last.lowercased()
        guard !lower.isEmpty, !uncountable.contains(lower) else { return word }
        if let singular = irregular.first(where: { $0.value == lower })?.key { return prefix + singular }
        for (suffix, replacement) in [("ies", "y"), ("sses", "ss"), ("shes", "sh"), ("ches", "ch"), ("xes", "x")]
        where lower.hasSuffix(suffix) {
            return prefix + last.dropLast(suffix.count) + replacement
        }
        if lower.hasSuffix("s") && !lower.hasSuffix("ss") { return String(prefix) + String(last.dropLast()) }
        return word
    }

    /// Words that are their own plural.
    private static let uncountable: Set<String> = [
        "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans", "police",
        "news", "metadata", "data",
    ]

    /// Whole-word plurals.
    private static let irregular: [String: String] = [
        "person": "people", "man": "men", "woman": "women", "child": "children", "sex": "sexes",
        "move": "moves", "zombie": "zombies", "ox": "oxen", "mouse": "mice", "louse": "lice",
        "quiz": "quizzes", "status": "statuses", "alias": "aliases", "bus": "buses",
        "octopus": "octopi", "virus": "viri", "buffalo": "buffaloes", "tomato": "tomatoes",
        "potato": "potatoes", "hero": "heroes", "matrix": "matrices", "vertex": "vertices",
        "index": "indices", "analysis": "analyses", "crisis": "crises", "thesis": "theses",
        "datum": "data", "medium": "media", "knife": "knives", "wife": "wives", "life": "lives",
        "half": "halves", "shelf": "shelves", "wolf": "wolves", "leaf": "leaves", "calf": "calves",
        "hive": "hives", "staff": "staff",
    ]

    /// Suffix rules, most specific first: the suffix is replaced.
    private static let suffixRules: [(suffix: String, replacement: String)] = [
        ("ss", "sses"), ("sh", "shes"), ("ch", "ches"), ("x", "xes"), ("z", "zes"),
        ("quy", "quies"), ("ay", "ays"), ("ey", "eys"), ("iy", "iys"), ("oy", "oys"), ("uy", "uys"),
        ("y", "ies"), ("sis", "ses"), ("us", "uses"), ("s", "s"),
    ]
}
