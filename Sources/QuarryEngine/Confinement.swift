import CSQLite

/// What a connection refuses, so that SQL run on it reaches nothing but its own database: no
/// other database file (`ATTACH`, and `VACUUM INTO`, which attaches its target), no rewriting
/// of the schema table (`PRAGMA writable_schema`), no extension loading. Each refusal is an
/// error that names what was refused and why.
///
/// ```swift
/// let db = try Database(path: ":memory:")
/// db.confine(Confinement(reason: "the lesson checker runs answers on in-memory copies"))
/// try db.execute("ATTACH 'victim.db' AS v")
/// // SQLite error 23: not authorized: ATTACH 'victim.db' reaches a database file outside this
/// // one (the lesson checker runs answers on in-memory copies)
/// ```
public struct Confinement: Sendable, Equatable {
  /// Why the connection is confined, for the message (`--safe`, the lesson checker).
  public var reason: String

  public init(reason: String) { self.reason = reason }

  /// Functions that reach outside the database (the CLI's file functions, extension loading).
  static let refusedFunctions: Set<String> = [
    "load_extension", "readfile", "writefile", "edit", "fts3_tokenizer",
  ]

  /// Why SQLite's authorizer call is refused (nil: allowed).
  func refusal(code: Int32, _ first: String?, _ second: String?) -> String? {
    switch code {
    case SQLITE_ATTACH:
      let file = first.map { "'\($0)'" } ?? "a file"
      return "ATTACH \(file) (or VACUUM INTO it) reaches a database file outside this one"
    case SQLITE_DETACH:
      return "DETACH changes which databases this connection reaches"
    case SQLITE_PRAGMA where first?.lowercased() == "writable_schema" && second != nil:
      return "PRAGMA writable_schema lets SQL rewrite the schema table itself"
    case SQLITE_FUNCTION
    where second.map { Self.refusedFunctions.contains($0.lowercased()) } ?? false:
      return "\(second ?? "this function")() reaches files or loads code outside SQLite"
    default:
      return nil
    }
  }
}

/// The one authorizer of a connection: it records accesses for an ``AccessLog`` and refuses
/// what a ``Confinement`` forbids, whichever of them is set.
final class Authorizer: @unchecked Sendable {
  var log: AccessLog?
  var confinement: Confinement?
  /// The last refusal's message, for the error SQLite reports as "not authorized".
  var refusal: String?

  func authorize(
    code: Int32, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?,
    _ context: UnsafePointer<CChar>?
  ) -> Int32 {
    log?.record(code: code, first, second, context)
    guard let confinement else { return SQLITE_OK }
    if let message = confinement.refusal(
      code: code, first.map { String(cString: $0) }, second.map { String(cString: $0) })
    {
      refusal = message + " (" + confinement.reason + ")"
      return SQLITE_DENY
    }
    return SQLITE_OK
  }
}

extension Database {
  /// Refuses, from now on, what `confinement` forbids (see ``Confinement``).
  public func confine(_ confinement: Confinement) {
    authorizer.confinement = confinement
    installAuthorizer()
  }

  /// The confinement in force, if any.
  public var confinement: Confinement? { authorizerIfAny?.confinement }

  func installAuthorizer() {
    let state = authorizer
    guard state.log != nil || state.confinement != nil else {
      sqlite3_set_authorizer(handle, nil, nil)
      return
    }
    sqlite3_set_authorizer(
      handle,
      { context, code, first, second, _, trigger in
        guard let context else { return SQLITE_OK }
        return Unmanaged<Authorizer>.fromOpaque(context).takeUnretainedValue().authorize(
          code: code, first, second, trigger)
      },
      Unmanaged.passUnretained(state).toOpaque())
  }

  /// SQLite's "not authorized", with what the confinement refused and why.
  func explainedRefusal(_ message: String) -> String {
    guard message == "not authorized" || message == "authorization denied",
      let refusal = authorizerIfAny?.refusal
    else { return message }
    authorizerIfAny?.refusal = nil
    return message + ": " + refusal
  }
}
