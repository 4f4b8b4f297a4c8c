import InlineSnapshotTesting
import Workbench
import XCTest

/// Window functions, Quarry's own spelling beyond StructuredQueries: ranking functions, value
/// functions and aggregates over a window given with `.over(…)`.
final class WindowFunctionTests: SnapshotTestCase {
  func testRankWithinEachPartition() throws {
    assertInlineSnapshot(
      of: try run(
        """
        Employee
          .where { $0.departmentID.eq(3) || $0.departmentID.eq(4) }
          .select { e in (e.name, e.departmentID, rank().over { $0.partition(by: e.departmentID).order(by: e.salary.desc()) }) }
          .order { ($0.departmentID, $0.salary.desc()) }
        """, fixture: "organisation"), as: .lines
    ) {
      """
      SELECT "employees"."name", "employees"."departmentID", rank() OVER (PARTITION BY "employees"."departmentID" ORDER BY "employees"."salary" DESC)
      FROM "employees"
      WHERE ((("employees"."departmentID") = (3)) OR (("employees"."departmentID") = (4)))
      ORDER BY "employees"."departmentID", "employees"."salary" DESC
      ┌────────────────┬──────────────┬──────────────────────────────────────────────────────────────┐
      │ name           │ departmentID │ rank() OVER (PARTITION BY "employees"."departmentID" ORDER … │
      ├────────────────┼──────────────┼──────────────────────────────────────────────────────────────┤
      │ Sofia Lopes    │ 3            │ 1                                                            │
      │ Carla Mendes   │ 3            │ 2                                                            │
      │ Bruno Teixeira │ 3            │ 3                                                            │
      │ Hugo Martins   │ 4            │ 1                                                            │
      │ Diana Alves    │ 4            │ 2                                                            │
      └────────────────┴──────────────┴──────────────────────────────────────────────────────────────┘
      """
    }
  }

  func testRunningTotalAndMovingAverage() throws {
    assertInlineSnapshot(
      of: try run(
        """
        Employee
          .where { $0.departmentID.eq(3) }
          .select { e in (e.name, e.salary.sum().over(orderBy: e.hiredAt), e.salary.avg().over { $0.order(by: e.hiredAt).rows(.preceding(1), .currentRow) }) }
          .order(by: \\.hiredAt)
        """, fixture: "organisation"), as: .lines
    ) {
      """
      SELECT "employees"."name", sum("employees"."salary") OVER (ORDER BY "employees"."hiredAt"), avg("employees"."salary") OVER (ORDER BY "employees"."hiredAt" ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
      FROM "employees"
      WHERE (("employees"."departmentID") = (3))
      ORDER BY "employees"."hiredAt"
      ┌────────────────┬──────────────────────────────────────────────────────────────┬──────────────────────────────────────────────────────────────┐
      │ name           │ sum("employees"."salary") OVER (ORDER BY "employees"."hired… │ avg("employees"."salary") OVER (ORDER BY "employees"."hired… │
      ├────────────────┼──────────────────────────────────────────────────────────────┼──────────────────────────────────────────────────────────────┤
      │ Sofia Lopes    │ 150000                                                       │ 150000.0                                                     │
      │ Carla Mendes   │ 228000                                                       │ 114000.0                                                     │
      │ Bruno Teixeira │ 302000                                                       │ 76000.0                                                      │
      └────────────────┴──────────────────────────────────────────────────────────────┴──────────────────────────────────────────────────────────────┘
      """
    }
  }

  func testLagLeadAndRowNumber() throws {
    assertInlineSnapshot(
      of: try run(
        """
        Employee
          .where { $0.departmentID.eq(4) || $0.departmentID.eq(5) }
          .select { ($0.name, rowNumber().over(orderBy: $0.hiredAt), $0.name.lag().over(orderBy: $0.hiredAt), $0.name.lead(offset: 1, default: "—").over(orderBy: $0.hiredAt)) }
          .order(by: \\.hiredAt)
        """, fixture: "organisation"), as: .lines
    ) {
      """
      SELECT "employees"."name", row_number() OVER (ORDER BY "employees"."hiredAt"), lag("employees"."name") OVER (ORDER BY "employees"."hiredAt"), lead("employees"."name", 1, '—') OVER (ORDER BY "employees"."hiredAt")
      FROM "employees"
      WHERE ((("employees"."departmentID") = (4)) OR (("employees"."departmentID") = (5)))
      ORDER BY "employees"."hiredAt"
      ┌──────────────┬────────────────────────────────────────────────────┬──────────────────────────────────────────────────────────────┬──────────────────────────────────────────────────────────────┐
      │ name         │ row_number() OVER (ORDER BY "employees"."hiredAt") │ lag("employees"."name") OVER (ORDER BY "employees"."hiredAt… │ lead("employees"."name", 1, '—') OVER (ORDER BY "employees"… │
      ├──────────────┼────────────────────────────────────────────────────┼──────────────────────────────────────────────────────────────┼──────────────────────────────────────────────────────────────┤
      │ Diana Alves  │ 1                                                  │ NULL                                                         │ Rita Gomes                                                   │
      │ Rita Gomes   │ 2                                                  │ Diana Alves                                                  │ Hugo Martins                                                 │
      │ Hugo Martins │ 3                                                  │ Rita Gomes                                                   │ —                                                            │
      └──────────────┴────────────────────────────────────────────────────┴──────────────────────────────────────────────────────────────┴──────────────────────────────────────────────────────────────┘
      """
    }
  }

  func testMistakesGetLocatedMessages() throws {
    assertInlineSnapshot(
      of: try run(
        """
        Employee.select { ($0.name, $0.salary.over()) }
        Employee.select { e in (e.name, rowNumber().over { $0.partition(by: $0.departmentID) }) }
        Employee.select { e in (e.name, ntile(4).over { $0.order(by: e.salary).rows(.preceding(-1)) }) }
        Employee.select { ($0.name, denseRank()) }
        Employee.where { rank().over(orderBy: $0.salary.desc()) <= 3 }.select(\\.name)
        """, fixture: "organisation"), as: .lines
    ) {
      """
      error: 1:39: 'over' applies to an aggregate (sum(), count(), avg()…) or a window function (rowNumber(), rank(), lag()…), not to a plain value
      Employee.select { ($0.name, $0.salary.over()) }
                                            ^~~~
      error: 2:69: inside .over { … }, $0 is the window, which has no member 'departmentID': name the row in the outer closure and use that name (Employee.select { e in rank().over { $0.order(by: e.salary) } })
      Employee.select { e in (e.name, rowNumber().over { $0.partition(by: $0.departmentID) }) }
                                                                          ^~~~~~~~~~~~~~~
      error: 3:77: 'preceding' needs a whole number of rows, like .preceding(2)
      Employee.select { e in (e.name, ntile(4).over { $0.order(by: e.salary).rows(.preceding(-1)) }) }
                                                                                  ^~~~~~~~~~~~~~
      SELECT "employees"."name", dense_rank()
      FROM "employees"
      error: 4:1: SQLite error 1: misuse of window function dense_rank(); a window function needs its window: add .over(…), e.g. rank().over(orderBy: $0.salary.desc())
      Employee.select { ($0.name, denseRank()) }
      ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
      SELECT "employees"."name"
      FROM "employees"
      WHERE ((rank() OVER (ORDER BY "employees"."salary" DESC)) <= (3))
      error: 5:1: SQLite error 1: misuse of window function rank(); a window function cannot be used in where, group or having (they run before windows are computed): compute it in a CTE (With { … }) and filter that
      Employee.where { rank().over(orderBy: $0.salary.desc()) <= 3 }.select(\\.name)
      ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
      """
    }
  }
}
