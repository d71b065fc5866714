import Keel
import Testing

/// How `fullMessages` names attributes: Rails' `humanize`, with names of your own.
struct ValidationErrorFullMessagesTests {
    @Test(arguments: [
        ("title", "Title"),
        ("dueDate", "Due date"),
        ("due_date", "Due date"),
        ("author_id", "Author"),
        ("authorID", "Author"),
        ("authorId", "Author"),
        ("id", "Id"),
        ("userURL", "User url"),
        ("invites.email", "Invites email"),
        ("author.firstName", "Author first name"),
        ("_private", "Private"),
        ("", ""),
    ])
    func attributeKeysReadAsWords(_ key: String, _ name: String) {
        #expect(ValidationError.humanAttributeName(key) == name)
    }

    @Test func fullMessagesNameAttributesAsRailsDoes() {
        let error: ValidationError = ["dueDate": ["has wrong format"], "title": ["can't be blank", "is too short"]]

        #expect(error.fullMessages == ["Due date has wrong format", "Title can't be blank", "Title is too short"])
        #expect(error.description == "Due date has wrong format; Title can't be blank; Title is too short")
    }

    @Test func modelWideMessagesAndBaseMessagesComeFirstWithoutAName() {
        var error = ValidationError("Is locked")
        error.add("must exist", for: "authorID")
        error.add("Was changed by someone else", for: "base")

        #expect(error.fullMessages == ["Is locked", "Was changed by someone else", "Author must exist"])
    }

    @Test func namesOfYourOwnReplaceTheHumanizedOnes() {
        let error: ValidationError = ["dueDate": ["has wrong format"], "title": ["can't be blank"]]

        let messages = error.fullMessages(attributeNames: ["dueDate": "Deadline"])

        #expect(messages == ["Deadline has wrong format", "Title can't be blank"])
    }

    @Test func aServersSnakeCaseKeysReadTheSame() {
        let error = ValidationError(json: ["due_at": ["can't be in the past"], "base": ["Locked"]])

        #expect(error?.fullMessages == ["Locked", "Due at can't be in the past"])
    }
}
