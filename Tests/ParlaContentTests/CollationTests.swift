import ParlaContent
import ParlaCore
import Testing

@Suite("collation")
struct CollationTests {
    func sorted(_ words: [String], _ language: Language) -> [String] {
        let collation = Collation(language)
        return words.sorted { collation.sortsBefore($0, $1) }
    }

    @Test func frenchAccentsSortWithTheirLetter() {
        #expect(
            sorted(["été", "etage", "école", "eau", "élève", "zèbre", "cœur", "côte", "cote", "coté"], .french)
                == ["cœur", "cote", "côte", "coté", "eau", "école", "élève", "etage", "été", "zèbre"])
        #expect(sorted(["côté", "coté", "côte", "cote"], .french) == ["cote", "côte", "coté", "côté"])
    }

    @Test func spanishÑIsALetterAfterN() {
        #expect(
            sorted(["ñandú", "nube", "oso", "niño", "nuez", "árbol", "zapato"], .spanish)
                == ["árbol", "niño", "nube", "nuez", "ñandú", "oso", "zapato"])
        let collation = Collation(.spanish)
        #expect(collation.alphabet.count == 27)
        #expect(collation.alphabet[14] == "Ñ")
        #expect(collation.initial(of: "ñandú") == "Ñ")
        #expect(collation.initial(of: "Ábaco") == "A")
    }

    @Test func germanUmlautsAndEszettDIN5007() {
        #expect(
            sorted(["Öl", "Ofen", "Apfel", "Äpfel", "Maß", "Masse", "Mast", "Übung", "Uhr", "Zug"], .german)
                == ["Apfel", "Äpfel", "Maß", "Masse", "Mast", "Ofen", "Öl", "Übung", "Uhr", "Zug"])
        #expect(Collation(.german).initial(of: "Äpfel") == "A")
    }

    @Test func italianAndEnglish() {
        #expect(sorted(["città", "cane", "perché", "pera", "Uva"], .italian) == ["cane", "città", "pera", "perché", "Uva"])
        #expect(sorted(["ice-cream", "ice", "Iceland", "café", "cafe"], .english) == ["cafe", "café", "ice", "ice-cream", "Iceland"])
    }

    @Test("words in other scripts sort after the alphabet and have no letter in the bar")
    func otherScripts() {
        let collation = Collation(.english)
        #expect(sorted(["사과", "zebra", "שלום", "apple"], .english) == ["apple", "zebra", "שלום", "사과"])
        #expect(collation.initial(of: "사과") == nil)
    }
}

@Suite("word pages and the alphabet bar")
struct WordPagingTests {
    /// Words made to start with the given letters, `count` each.
    func words(_ initials: [(String, Int)]) -> [String] {
        initials.flatMap { letter, count in
            (0..<count).map { "\(letter)\(String(repeating: "a", count: 1 + $0 / 26))\(UnicodeScalar(97 + $0 % 26)!)" }
        }
    }

    @Test("a page spanning e to i covers e, f, g, h and i; letters link to their first page")
    func spanningPage() throws {
        let list = words([("a", 20), ("b", 15), ("e", 10), ("f", 5), ("i", 20), ("k", 5)])
        let collation = Collation(.english)
        let second = try #require(WordPaging.page(2, of: list, collation: collation) { $0 })
        #expect(second.pageCount == 3)
        #expect(second.words.count == 35)
        #expect(second.words.first?.hasPrefix("e") == true)
        #expect(second.words.last?.hasPrefix("i") == true)
        let covered = second.alphabetBar.filter(\.onThisPage).map(\.letter)
        #expect(covered == ["E", "F", "G", "H", "I"])
        let bar = Dictionary(uniqueKeysWithValues: second.alphabetBar.map { ($0.letter, $0.firstPage) })
        #expect(bar["A"] == 1)
        #expect(bar["B"] == 1)
        #expect(bar["E"] == 2)
        #expect(bar["I"] == 2)
        #expect(bar["K"] == 3)
        #expect(bar["C"] == .some(nil))  // a letter with no word
        #expect(bar["Z"] == .some(nil))
    }

    @Test("the last page is partial; past it there is no page")
    func lastPage() throws {
        let list = words([("m", 40)])
        let last = try #require(WordPaging.page(2, of: list, collation: Collation(.french)) { $0 })
        #expect(last.words.count == 5)
        #expect(WordPaging.page(3, of: list, collation: Collation(.french)) { $0 } == nil)
        #expect(WordPaging.page(0, of: list, collation: Collation(.french)) { $0 } == nil)
        let empty = try #require(WordPaging.page(1, of: [String](), collation: Collation(.french)) { $0 })
        #expect(empty.words.isEmpty)
        #expect(empty.alphabetBar.allSatisfy { $0.firstPage == nil && !$0.onThisPage })
    }

    @Test("Spanish pages put ñ words after n words")
    func spanishBar() throws {
        let page = try #require(WordPaging.page(1, of: ["oso", "ñu", "nube"], collation: Collation(.spanish)) { $0 })
        #expect(page.words == ["nube", "ñu", "oso"])
        #expect(page.alphabetBar.filter(\.onThisPage).map(\.letter) == ["N", "Ñ", "O"])
    }
}
