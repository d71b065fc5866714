import Testing

@testable import Keel

/// The owners of a model (the posts of an author) are held in its ``DependentLinks`` one word
/// each: a link is a class (``DependentLink``), not an existential of two words.
struct DependentLinkSlotTests {
    @Test func anOwnerTakesOneWordOfItsModelsList() {
        #expect(DependentLinks.slotStride == MemoryLayout<Int>.stride)
    }
}
