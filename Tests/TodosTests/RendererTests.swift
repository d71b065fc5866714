import Foundation
import Keel
import Testing

@testable import todos

/// The renderer prints because of the collection's events, in process with `InMemorySync`.
@MainActor
struct RendererTests {
    /// Collects what the renderer writes.
    final class Output {
        var text = ""
    }

    private func makeRenderer(_ todos: TodoList, filter: ListFilter = .all) -> (Renderer, Output) {
        let output = Output()
        let terminal = Terminal(
            write: { output.text += $0 },
            writeError: { _ in },
            usesColor: false,
            usesColorForErrors: false
        )
        return (Renderer(todos: todos, terminal: terminal, filter: filter), output)
    }

    @Test func printsNothingWithoutEvents() {
        let todos = TodoList([["id": 1, "title": "Quiet"]])
        let (renderer, output) = makeRenderer(todos)
        renderer.startListening()
        #expect(renderer.flush() == false)
        #expect(output.text.isEmpty)
    }

    @Test func eventsMarkTheListDirtyAndFlushPrintsItOnce() {
        let todos = TodoList()
        let (renderer, output) = makeRenderer(todos)
        renderer.startListening()
        todos.add(["id": 1, "title": "Buy milk"])
        todos.add(["id": 2, "title": "Walk"])
        todos.get(1)?.set("done", true)

        #expect(renderer.isDirty)
        #expect(renderer.flush())
        #expect(
            output.text == """
                Added "Buy milk" (#1).
                Added "Walk" (#2).
                Completed "Buy milk".
                Todos (1 active, 1 completed)
                  1. [x] Buy milk #1
                  2. [ ] Walk     #2

                """
        )
        #expect(renderer.flush() == false, "printed once")
    }

    @Test func stopsPrintingOnceItStopsListening() {
        let todos = TodoList()
        let (renderer, output) = makeRenderer(todos)
        renderer.startListening()
        renderer.stopListening()
        todos.add(["id": 1, "title": "Unseen"])
        #expect(renderer.flush() == false)
        #expect(output.text.isEmpty)
    }

    @Test func fetchingResetsTheCollectionAndPrintsTheFilteredList() async throws {
        let sync = InMemorySync(records: [
            "/todos": [
                ["id": 2, "title": "Second", "done": true], ["id": 1, "title": "First", "done": false],
            ]
        ])
        let todos = TodoList(sync: sync)
        let (renderer, output) = makeRenderer(todos, filter: .completed)
        renderer.startListening()
        try await todos.fetch(reset: true)
        renderer.flush()
        #expect(output.text == "Completed todos (1 of 2)\n  2. [x] Second #2\n", "sorted by id")
    }

    @Test func colorsOnlyWhenTheTerminalTakesThem() {
        let todos = TodoList([["id": 1, "title": "Done", "done": true]])
        let terminal = Terminal(write: { _ in }, writeError: { _ in }, usesColor: true, usesColorForErrors: false)
        let renderer = Renderer(todos: todos, terminal: terminal)
        #expect(
            renderer.render()
                == "\u{1B}[1mTodos (0 active, 1 completed)\u{1B}[0m\n"
                + "  1. \u{1B}[32m[x]\u{1B}[0m \u{1B}[2mDone\u{1B}[0m \u{1B}[2m#1\u{1B}[0m\n"
        )
        #expect(Terminal.standard(environment: ["NO_COLOR": "1"]).usesColor == false)
    }

    @Test func onlyANonEmptyNoColorTurnsColorsOff() {
        #expect(Terminal.allowsColor(environment: [:]))
        #expect(Terminal.allowsColor(environment: ["NO_COLOR": ""]), "no-color.org: an empty value does not count")
        #expect(Terminal.allowsColor(environment: ["NO_COLOR": "1"]) == false)
        #expect(Terminal.allowsColor(environment: ["TERM": "dumb"]) == false)
    }

    @Test func wideCharactersAndEmojiKeepTheIDsAligned() {
        let todos = TodoList([
            ["id": 1, "title": "Tea"], ["id": 2, "title": "お茶"], ["id": 3, "title": "🍵"],
            ["id": 4, "title": "Cafe\u{301}"],
        ])
        let (renderer, _) = makeRenderer(todos)
        #expect(
            renderer.render() == """
                Todos (4 active, 0 completed)
                  1. [ ] Tea  #1
                  2. [ ] お茶 #2
                  3. [ ] 🍵   #3
                  4. [ ] Café #4

                """
        )
    }

    @Test(arguments: [
        ("abc", 3), ("日本語", 6), ("한국어", 6), ("ｱｲ", 2), ("ＡＢ", 4), ("e\u{301}", 1), ("\u{301}", 0),
        ("a\u{200B}b", 2), ("🍵", 2), ("❤", 1), ("❤\u{FE0F}", 2), ("👍🏽", 2), ("🇯🇵", 2), ("👨‍👩‍👧", 2), ("1\u{FE0F}\u{20E3}", 2),
    ])
    func displayWidthCountsTerminalColumns(_ text: String, _ columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test func titlesAreShownOnOneLine() {
        #expect(Renderer.displayText("a\tb\nc\u{1B}[0m") == "a b c [0m")
    }
}

/// The model's validation, which the app reports with exit status 3.
struct TodoValidationTests {
    @Test(arguments: ["", "   ", "\n\t"])
    func blankTitlesAreInvalid(_ title: String) {
        let todo = Todo(["title": "ok"])
        #expect(todo.set("title", .string(title)) == false)
        #expect(todo.validationError?["title"] == ["can't be blank"])
    }

    @Test func titlesHaveAMaximumLength() {
        let todo = Todo(["title": "ok"])
        #expect(todo.set("title", .string(String(repeating: "a", count: 200))))
        #expect(todo.set("title", .string(String(repeating: "a", count: 201))) == false)
        #expect(todo.validationError?["title"] == ["is too long (maximum is 200 characters)"])
    }

    @Test func doneMustBeABoolean() {
        let todo = Todo(["title": "ok"])
        #expect(todo.set("done", "yes") == false)
        #expect(todo.validationError?["done"] == ["must be true or false"])
    }

    @Test func newTodosStartActiveWithAnEmptyTitle() {
        let todo = Todo()
        #expect(todo.title == "")
        #expect(todo.isDone == false)
    }
}
