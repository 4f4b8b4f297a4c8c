import SwiftSyntax

/// The member blocks of every type an input declares, by qualified name: the type's own
/// declaration's and each of its extensions', wherever they stand. Swift finds a type's
/// members in all of them, so a method in `extension TripModel` (another file) reads the
/// class's stored `tripID` by its bare name.
///
/// ```swift
/// final class TripModel { let tripID: UUID }
/// extension TripModel { func ideas(_ db: Database) throws -> [Idea] { try Idea.where { $0.tripID.eq(tripID) }.fetchAll(db) } }
/// // SELECT … FROM "ideas" WHERE ("ideas"."tripID") = (?)   ?1 = tripID
/// ```
struct TypeMemberBlocks {
  private var blocks: [String: [MemberBlockSyntax]] = [:]
  /// Every instance method any type or protocol declares, by name (read once, asked per site).
  private var instanceMethods: [String: [FunctionDeclSyntax]] = [:]

  init(_ tree: some SyntaxProtocol) {
    let finder = Finder(viewMode: .sourceAccurate)
    finder.walk(tree)
    blocks = finder.blocks
    for function in blocks.values.joined().flatMap(\.members).compactMap({ $0.decl.as(FunctionDeclSyntax.self) })
    where !function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) {
      instanceMethods[function.name.text, default: []].append(function)
    }
  }

  /// The blocks of the type `name` (qualified as `Outer.Inner`), `current` first.
  func blocks(of name: String, current: MemberBlockSyntax) -> [MemberBlockSyntax] {
    [current] + (blocks[name] ?? []).filter { $0.id != current.id }
  }

  /// Whether every static function `member` the type declares returns a Swift value, not a
  /// statement: `static func images(forIdea: UUID, in db: Database) throws -> [ImageAsset]`
  /// fetches inside and hands back rows, so `ImageAsset.images(…).contains(…)` is Swift's
  /// code, not a query. False when the type declares no such function.
  /// `call` is the call of the member (nil when it is not called): only the functions its
  /// arguments fit are candidates, as overload resolution has it (`Self.upsert { … }` is the
  /// library's, not the app's `static func upsert(_ record: Self, in db: Database)`).
  func returnsSwiftValue(type: String, member: String, call: FunctionCallExprSyntax?) -> Bool {
    let functions = (blocks[type] ?? []).flatMap(\.members).compactMap { $0.decl.as(FunctionDeclSyntax.self) }.filter {
      $0.name.text == member && $0.modifiers.contains { $0.name.tokenKind == .keyword(.static) }
        && call.map(Self.fits($0)) ?? true
    }
    guard !functions.isEmpty else { return false }
    return functions.allSatisfy { function in
      guard let returned = function.signature.returnClause?.type else { return true }
      return Self.isSwiftValue(returned, of: type)
    }
  }

  /// Whether a type or protocol of the app declares an instance method `name` the call fits
  /// (`protocol AgentTool { func execute(_ input: [String: AgentValue]) … }`): then
  /// `tool.execute(input)` on a value Quarry cannot type is as much the app's as the library's.
  func declaresInstanceMethod(_ name: String, fitting call: FunctionCallExprSyntax) -> Bool {
    (instanceMethods[name] ?? []).contains { Self.fits($0)(call) }
  }

  /// Whether a call's arguments fit a function's parameters: each argument's label in order,
  /// parameters with a default skipped, trailing closures taking the parameters after.
  private static func fits(_ function: FunctionDeclSyntax) -> (FunctionCallExprSyntax) -> Bool {
    { call in
      var parameters = function.signature.parameterClause.parameters[...]
      for argument in call.arguments {
        while let next = parameters.first, next.firstName.text != (argument.label?.text ?? "_") {
          guard next.defaultValue != nil else { return false }
          parameters.removeFirst()
        }
        guard !parameters.isEmpty else { return false }
        parameters.removeFirst()
      }
      let closures = (call.trailingClosure == nil ? 0 : 1) + call.additionalTrailingClosures.count
      let required = parameters.filter { $0.defaultValue == nil }.count
      return required <= closures && closures <= parameters.count
    }
  }

  /// Collections, tuples, Swift's plain values, a record of the type (or an optional of one).
  private static func isSwiftValue(_ type: TypeSyntax, of owner: String) -> Bool {
    if let optional = type.as(OptionalTypeSyntax.self) { return isSwiftValue(optional.wrappedType, of: owner) }
    if type.is(ArrayTypeSyntax.self) || type.is(DictionaryTypeSyntax.self) || type.is(TupleTypeSyntax.self) { return true }
    guard let named = type.as(IdentifierTypeSyntax.self) else { return false }
    let name = named.name.text
    return name == owner || name == "Self" || swiftValueTypes.contains(name)
  }

  private static let swiftValueTypes: Set<String> = [
    "Bool", "Int", "Int64", "Int32", "Double", "Float", "String", "Date", "UUID", "Data", "URL", "Set", "Array",
    "Dictionary", "Void",
  ]

  private final class Finder: SyntaxVisitor {
    var blocks: [String: [MemberBlockSyntax]] = [:]
    var path: [String] = []

    func enter(_ name: String, _ block: MemberBlockSyntax) -> SyntaxVisitorContinueKind {
      path.append(name)
      blocks[path.joined(separator: "."), default: []].append(block)
      return .visitChildren
    }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text, node.memberBlock) }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text, node.memberBlock) }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text, node.memberBlock) }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text, node.memberBlock) }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text, node.memberBlock) }
    override func visitPost(_ node: ProtocolDeclSyntax) { path.removeLast() }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
      // An extension names its type in full, wherever it stands.
      let saved = path
      path = []
      defer { extensionPaths.append(saved) }
      return enter(node.extendedType.trimmedDescription, node.memberBlock)
    }
    private var extensionPaths: [[String]] = []
    override func visitPost(_ node: StructDeclSyntax) { path.removeLast() }
    override func visitPost(_ node: ClassDeclSyntax) { path.removeLast() }
    override func visitPost(_ node: ActorDeclSyntax) { path.removeLast() }
    override func visitPost(_ node: EnumDeclSyntax) { path.removeLast() }
    override func visitPost(_ node: ExtensionDeclSyntax) { path = extensionPaths.removeLast() }
    // Types declared inside functions are local: not members of anything.
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  }
}
