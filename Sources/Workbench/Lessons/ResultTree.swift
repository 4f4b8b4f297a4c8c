import FoundationEssentials
import QuarryDSL
import QuarryEngine
import QueryBuilder

/// A result drawn as a tree from each row's parent id (`managerID`, `parentID`, `parent`…),
/// whatever order the rows came in; without a parent column, rows are indented by their
/// `depth` column only, and the drawing says so.
///
/// ```swift
/// ResultTree.draw(columns: ["id", "managerID", "name"], rows: [[2, 1, "Rui"], [1, nil, "Helena"], [3, 1, "Sofia"]])
/// // Helena
/// // ├─ Rui
/// // └─ Sofia
/// ```
enum ResultTree {
  /// Names a parent column goes by.
  static func isParentColumn(_ name: String) -> Bool {
    let lower = name.lowercased()
    return ["parent", "parentid", "parent_id", "managerid", "manager_id", "bossid"].contains(lower)
      || (lower.hasSuffix("parentid") && lower.count > 8)
  }

  static func draw(columns: [String], rows: [[DatabaseValue]], display: (DatabaseValue) -> String = { $0.inlineSQL }) -> Result<
    String, TreeProblem
  > {
    let lowered = columns.map { $0.lowercased() }
    let idColumn = lowered.firstIndex(of: "id")
    let parentColumn = columns.firstIndex(where: isParentColumn)
    let depthColumn = lowered.firstIndex { $0 == "depth" || $0 == "level" }
    let hidden = Set([idColumn, parentColumn, depthColumn].compactMap { $0 })
    func label(_ row: [DatabaseValue]) -> String {
      let shown = row.indices.filter { !hidden.contains($0) }
      return (shown.isEmpty ? idColumn.map { [$0] } ?? [] : shown).map { display(row[$0]) }.joined(separator: " · ")
    }
    if let idColumn, let parentColumn {
      return .success(byParent(rows: rows, id: idColumn, parent: parentColumn, label: label))
    }
    guard let depthColumn else { return .failure(.noColumns) }
    var text = ""
    for row in rows {
      let depth = max(0, min(Int(row[depthColumn].integerValue ?? 0), 200))
      text += String(repeating: "   ", count: depth) + label(row) + "\n"
    }
    return .success(
      text + "(indented by depth in the rows' order: add the parent's id to the result, as `managerID`, to draw the branches)\n")
  }

  enum TreeProblem: Error {
    case noColumns
  }

  private static func byParent(rows: [[DatabaseValue]], id: Int, parent: Int, label: ([DatabaseValue]) -> String) -> String {
    let key: (DatabaseValue) -> String = { AnswerChecker.valueKey($0) }
    let ids = Set(rows.map { key($0[id]) })
    var children: [String: [Int]] = [:]
    var roots: [Int] = []
    for (index, row) in rows.enumerated() {
      let parentValue = row[parent]
      if parentValue == .null || !ids.contains(key(parentValue)) || key(parentValue) == key(row[id]) {
        roots.append(index)
      } else {
        children[key(parentValue), default: []].append(index)
      }
    }
    var text = ""
    var drawn = Set<Int>()
    func walk(_ index: Int, prefix: String, branch: String) {
      guard drawn.insert(index).inserted else { return }  // a row reached twice (a cycle) is drawn once
      text += prefix + branch + label(rows[index]) + "\n"
      let below = children[key(rows[index][id])] ?? []
      let childPrefix = prefix + (branch == "├─ " ? "│  " : branch.isEmpty ? "" : "   ")
      for (position, child) in below.enumerated() {
        walk(child, prefix: childPrefix, branch: position == below.count - 1 ? "└─ " : "├─ ")
      }
    }
    for root in roots { walk(root, prefix: "", branch: "") }
    // Rows in a cycle with no root: drawn from the first of them.
    for index in rows.indices where !drawn.contains(index) { walk(index, prefix: "", branch: "") }
    return text
  }
}

/// Passes results through and keeps the last one (up to `limit` rows) for commands that look
/// at it again, such as `.tree`, without running the input a second time.
final class LastResultSink: ForwardingSink {
  let store: LastResult
  init(_ base: ResultSink, store: LastResult) {
    self.store = store
    super.init(base)
  }
  override func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?]) {
    store.columns = columns
    store.rows = []
    store.truncated = false
    super.begin(input: input, sql: sql, bindings: bindings, columns: columns, types: types)
  }
  override func row(_ statement: PreparedStatement) {
    if store.rows.count < LastResult.limit { store.rows.append(statement.row()) } else { store.truncated = true }
    super.row(statement)
  }
}

/// The last result shown at the prompt.
public final class LastResult {
  static let limit = 10_000
  public internal(set) var columns: [String] = []
  public internal(set) var rows: [[DatabaseValue]] = []
  public internal(set) var truncated = false
}
