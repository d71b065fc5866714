import Keel
import Testing

/// How the validation bodies of Rails and Django REST framework become a `ValidationError`.
struct ServerValidationErrorDecodingTests {
    @Test func railsAndDRFFieldErrors() {
        let error = ValidationError(json: ["title": ["can't be blank", "is too short"], "due": "is invalid"])
        #expect(error?["title"] == ["can't be blank", "is too short"])
        #expect(error?["due"] == ["is invalid"])
    }

    @Test func modelWideErrorsOfEveryServer() {
        #expect(ValidationError(json: ["base": ["is locked"]])?.messages == ["is locked"])
        #expect(ValidationError(json: ["non_field_errors": ["Duplicate entry."]])?.messages == ["Duplicate entry."])
        #expect(ValidationError(json: ["errors": ["__all__": ["Conflict."]]])?.messages == ["Conflict."])
    }

    @Test func railsNestedAttributeKeysStayAsTheyAre() {
        let error = ValidationError(json: ["errors": ["invites.email": ["is invalid"]]])
        #expect(error?["invites.email"] == ["is invalid"])
    }

    @Test func drfNestedObjectErrorsGetDottedPaths() {
        let error = ValidationError(json: [
            "author": ["name": ["This field is required."], "non_field_errors": ["Unknown author."]]
        ])
        #expect(error?["author.name"] == ["This field is required."])
        #expect(error?["author"] == ["Unknown author."])
    }

    @Test func drfNestedListErrorsGetIndexedPaths() {
        let error = ValidationError(json: [
            "invites": [[:], ["email": ["Enter a valid email address."]]],
            "tags": ["Ensure this field has no more than 3 elements."],
        ])
        #expect(error?["invites[1].email"] == ["Enter a valid email address."])
        #expect(error?["invites[0].email"] == [])
        #expect(error?["tags"] == ["Ensure this field has no more than 3 elements."])
    }

    @Test func bodiesThatAreNotMessagesAreNotValidationErrors() {
        #expect(ValidationError(json: ["detail": "Not found."]) == nil)
        #expect(ValidationError(json: ["count": 3]) == nil)
        #expect(ValidationError(json: ["title": []]) == nil)
        #expect(ValidationError(json: ["invites": [[:], [:]]]) == nil)
    }
}
