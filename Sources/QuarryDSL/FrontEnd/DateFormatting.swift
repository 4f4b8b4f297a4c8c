/// Dates as StructuredQueries stores them by default: ISO-8601 text in UTC with milliseconds.
///
/// ```swift
/// DateFormatting.iso8601(secondsSince1970: 978_307_200)  // "2001-01-01 00:00:00.000"
/// DateFormatting.iso8601(secondsSince1970: 1e300)        // nil: past year 9999
/// ```
import Glibc
import QueryBuilder

public enum DateFormatting {
  /// Now, in seconds since 1970 (what `Date()` is when the app evaluates it).
  static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec / 1_000_000) / 1000
  }

  /// Seconds since 1970 of `YYYY-MM-DD HH:MM:SS.SSS` text (the default storage), or nil.
  ///
  /// ```swift
  /// DateFormatting.seconds(fromISO8601: "2001-01-01 00:00:00.000")  // 978307200
  /// ```
  static func seconds(fromISO8601 text: String) -> Double? {
    let parts = text.split(whereSeparator: { "- :T".contains($0) })
    guard parts.count >= 3, let year = Int64(parts[0]), let month = Int64(parts[1]), let day = Int64(parts[2]),
      (1...12).contains(month), (1...31).contains(day), (0...9999).contains(year)
    else { return nil }
    let hour = parts.count > 3 ? Double(parts[3]) ?? 0 : 0
    let minute = parts.count > 4 ? Double(parts[4]) ?? 0 : 0
    let second = parts.count > 5 ? Double(parts[5]) ?? 0 : 0
    // Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm, inverted).
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    return Double(days) * 86_400 + hour * 3600 + minute * 60 + second
  }

  /// A date as a column stores it: ISO-8601 text by default, whole seconds since 1970 for
  /// `Date.UnixTimeRepresentation`, a Julian day number for `Date.JulianDayRepresentation`.
  static func stored(secondsSince1970 seconds: Double, representation: String?) -> QueryBinding? {
    if let representation, representation.contains("UnixTime") {
      guard representable.contains(seconds) else { return nil }
      return .integer(Int64(seconds.rounded(.down)))
    }
    if let representation, representation.contains("JulianDay") {
      guard representable.contains(seconds) else { return nil }
      return .double(2_440_587.5 + seconds / 86_400)
    }
    return iso8601(secondsSince1970: seconds).map { .text($0) }
  }

  /// The dates SQLite's date functions handle: years 0000 through 9999.
  static let representable: ClosedRange<Double> = -62_167_219_200...253_402_300_799.999

  /// The text of a date, or nil when it falls outside years 0000–9999 (or is not a number).
  public static func iso8601(secondsSince1970 seconds: Double) -> String? {
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
