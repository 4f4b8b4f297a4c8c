// The tables of rjchatfield/sharing-grdb-pokeapi (a StructuredQueriesSQLite app over PokeAPI's
// CSV data), written here from its column names: the models its queries in RealCode/cases.jsonl use.
import StructuredQueries

@Table("pokemon")
public struct PokeAPIPokemon: Decodable, Hashable, Identifiable, Sendable {
    public typealias ID = Int
    @Column("id", primaryKey: true) public var id: ID
    @Column("identifier") public var identifier: String
    @Column("species_id") public var speciesId: PokeAPIPokemonSpecies.ID
    @Column("height") public var height: Int
    @Column("base_experience") public var baseExperience: Int?
    @Column("is_default") public var isDefault: Bool
}

@Table("pokemon_species")
public struct PokeAPIPokemonSpecies: Decodable, Hashable, Identifiable, Sendable {
    public typealias ID = Int
    @Column("id", primaryKey: true) public var id: ID
    @Column("identifier") public var identifier: String
    @Column("evolves_from_species_id") public var evolvesFromSpeciesId: ID?
}

@Table("pokemon_evolution")
public struct PokeAPIPokemonEvolution: Decodable, Hashable, Identifiable, Sendable {
    public typealias ID = Int
    @Column("id", primaryKey: true) public var id: ID
    @Column("evolved_species_id") public var evolvedSpeciesId: PokeAPIPokemonSpecies.ID
    @Column("minimum_level") public var minimumLevel: Int?
}

@Table("stats")
public struct PokeAPIStat: Decodable, Hashable, Identifiable, Sendable {
    public typealias ID = Int
    @Column("id", primaryKey: true) public var id: ID
    @Column("identifier") public var identifier: String
}

@Table("pokemon_stats")
public struct PokeAPIPokemonStat: Decodable, Hashable, Sendable {
    @Column("pokemon_id", primaryKey: true) public var pokemonId: PokeAPIPokemon.ID
    @Column("stat_id") public var statId: PokeAPIStat.ID
    @Column("base_stat") public var baseStat: Int
    @Column("effort") public var effort: Int
}

@Table("moves")
public struct PokeAPIMove: Decodable, Hashable, Identifiable, Sendable {
    public typealias ID = Int
    @Column("id", primaryKey: true) public var id: ID
    @Column("identifier") public var identifier: String
    @Column("power") public var power: Int?
}

@Table("pokemon_moves")
public struct PokeAPIPokemonMove: Decodable, Hashable, Sendable {
    @Column("pokemon_id") public var pokemonId: PokeAPIPokemon.ID
    @Column("version_group_id") public var versionGroupId: Int
    @Column("move_id") public var moveId: PokeAPIMove.ID
    @Column("pokemon_move_method_id") public var pokemonMoveMethodId: Int
    @Column("level") public var level: Int
    @Column("order") public var order: Int?
    @Column("mastery") public var mastery: String?
}
