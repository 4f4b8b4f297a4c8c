/// Dates as StructuredQueries stores them by default: ISO-8601 text in UTC with milliseconds.
///
/// ```swift
/// DateFormatting.iso8601(secondsSince1970: 978_307_200)  // "2001-01-01 00:00:00.000"
/// DateFormatting.iso8601(secondsSince1970: 1e300)        // nil: past year 9999
/// ```
enum DateFormatting {
  /// The dates SQLite's date functions handle: years 0000 through 9999.
  static let representable: ClosedRange<Double> = -62_167_219_200 ... 253_402_300_799.999

  /// The text of a date, or nil when it falls outside years 0000–9999 (or is not a number).
  static func iso8601(secondsSince1970 seconds: Double) -> String? {
    guard representable.contains(seconds) else { return nil }
    let totalMillis = Int64((seconds * 1000).rounded())
    var days = totalMillis >= 0 ? totalMillis / 86_400_000 : (totalMillis - 86_399_999) / 86_400_000
    let millisOfDay = totalMillis - days * 86_400_000
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    days += 719_468
    let era = (days >= 0 ? days : days - 146_096) / 146_097
    let dayOfEra = days - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    var year = yearOfEra + era * 400
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthPrime = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
    let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
    if month <= 2 { year += 1 }
    let hours = millisOfDay / 3_600_000
    let minutes = millisOfDay / 60_000 % 60
    let secs = millisOfDay / 1000 % 60
    let millis = millisOfDay % 1000
    func pad(_ value: Int64, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hours, 2)):\(pad(minutes, 2)):\(pad(secs, 2)).\(pad(millis, 3))"
  }
}
