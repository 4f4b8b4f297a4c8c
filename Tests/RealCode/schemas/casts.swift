@Table struct C: Identifiable { let id: Int; var i: Int = 0; var oi: Int? = nil; var d: Double = 0; var s: String = ""; var b: Bool = false; var f: Float = 0 }
