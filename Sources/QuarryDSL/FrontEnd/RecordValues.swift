import QueryBuilder
import SwiftSyntax

/// Records as Swift values. The query builder holds a record (`Habit(id: 1, title: "a")`) as
/// one row of constants; the evaluator holds the same record as the struct Swift builds, so app
/// code's copies, property changes, `switch`es and loops over records run as Swift runs them, and
/// what they leave is the record a later statement binds.
///
/// ```swift
/// var a = Habit(id: 1, title: "a", count: 1)
/// switch a.count { case 1: a.count = 7; default: a.count = 9 }
/// a = Habit(id: 2, title: a.title + "!", count: a.count)
/// try Habit.insert { a }.execute(db)
/// // INSERT INTO "habits" ("id", "title", "count") VALUES (2, 'a!', 7)
/// ```
struct RecordValues {
  unowned let compiler: Compiler

  /// The struct value of a record of the input's tables (or their drafts), or nil when Swift
  /// would not hold exactly it: a column whose value is known only when the app runs, a column
  /// group, a stored property that is not a column, a value whose Swift type Quarry does not
  /// model — whatever does not give the same record back.
  func swiftValue(of record: Query) -> SwiftValue? {
    guard record.select.from == nil, let typeName = record.resultModel, let recordType = compiler.catalog.recordTypes[typeName],
      let model = table(of: typeName)
    else { return nil }
    var values: [SwiftValue] = []
    for property in recordType.properties {
      // (A column stored in another representation — JSON, a Unix time — keeps the builder's row.)
      guard let column = model.columns.first(where: { $0.name == property.name && $0.path.count <= 1 && !$0.isGenerated }),
        column.type.representation == nil, !column.type.wrapped.name.hasPrefix("["),
        let index = record.select.columns.firstIndex(where: { $0.alias == column.sqlName })
      else { return nil }
      // A draft's primary key is optional (`Draft(id: nil, …)`) where the table's is not.
      let type = property.type?.isOptional == true && !column.type.isOptional ? column.type.optional : column.type
      guard let value = compiler.swiftValue(.expression(TypedExpression(record.select.columns[index].expression, type: type))),
        type.isOptional || value != .none,
        // A date stored in another representation (`UnixTimeRepresentation`) is not read back as a date here.
        !type.isDate || SwiftEvaluator.unwrapOnce(value).map({ if case .date = $0 { true } else { false } }) ?? true
      else { return nil }
      values.append(value)
    }
    let structure = SwiftValue.structure(
      type: typeName, names: recordType.properties.map(\.name), values: values, encodable: recordType.isEncodable)
    // (The types are the declared columns' either way: `dueDate: Date?` given a `Date`.)
    guard let back = try? self.record(of: structure), back.select == record.select else { return nil }
    return structure
  }

  /// Whether a value the query builder holds is a record of the input's tables (or their
  /// drafts), one row of values.
  func isRecord(_ value: Value) -> Bool {
    guard case .query(let record) = value, record.select.from == nil, let typeName = record.resultModel else { return false }
    return compiler.catalog.recordTypes[typeName] != nil
  }

  /// Whether a Swift value is a record of one of the input's tables (or their drafts).
  func isRecord(_ value: SwiftValue) -> Bool {
    guard case .structure(let type, _, _, _) = value else { return false }
    return compiler.catalog.recordTypes[type] != nil && table(of: type) != nil
  }

  /// The record a struct value of a table type is (nil for any other value): its columns, in the
  /// table's order, each as the column stores it.
  func record(of value: SwiftValue) throws(SwiftValueProblem) -> Query? {
    guard case .structure(let typeName, let names, let values, _) = value, compiler.catalog.recordTypes[typeName] != nil,
      let model = table(of: typeName)
    else { return nil }
    var select = Select(from: nil)
    var types: [SwiftType?] = []
    for column in model.columns where !column.isGenerated {
      guard column.path.count <= 1, let index = names.firstIndex(of: column.name), values.indices.contains(index) else {
        throw SwiftValueProblem("is a '\(typeName)' whose column '\(column.name)' is not one of its properties")
      }
      select.columns.append(ResultColumn(.value(try values[index].binding(as: column.type)), as: column.sqlName))
      types.append(column.type)
    }
    var query = Query(select: select, tables: [TableInstance(model: model)])
    query.columnTypes = types
    query.resultModel = typeName
    return query
  }

  /// The table of a record type name (`Habit`, `Habit.Draft`).
  private func table(of typeName: String) -> TableModel? {
    compiler.catalog.table(forType: typeName.hasSuffix(".Draft") ? String(typeName.dropLast(".Draft".count)) : typeName)
  }
}

extension Compiler {
  /// Records as Swift values, in this compiler's catalog.
  var recordValues: RecordValues { RecordValues(compiler: self) }
}
