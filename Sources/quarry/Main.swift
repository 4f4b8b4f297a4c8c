import ArgumentParser
import Foundation

/// The entry point: the everyday `quarry [DATABASE] [options]` shapes start at once; anything
/// else (help, subcommands, mistakes) goes through ArgumentParser.
@main
enum Main {
  static func main() {
    guard let options = QueryOptions(commonArguments: Array(CommandLine.arguments.dropFirst())) else {
      Quarry.main()
      return
    }
    do {
      try options.run()
    } catch {
      Quarry.exit(withError: error)
    }
  }
}

