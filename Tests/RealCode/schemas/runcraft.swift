import Foundation
import StructuredQueries

  enum PaceZoneName: String, QueryBindable { case easy, marathon, threshold }
  enum SessionType: String, QueryBindable { case easy, tempo, rest }
  enum TrainingPhase: String, QueryBindable { case base, build }
  @Table struct RaceGoal: Identifiable {
    let id: UUID; var name: String; var targetDate: Date; var distanceKm: Double; var currentVDOT: Double; var createdAt: Date
    var isPlaceholder: Bool = false; var availableDaysData: String = "[1,2,3,4,5,6,7]"; var longRunDay: Int? = nil
  }
  @Table struct TrainingWeek: Identifiable {
    let id: UUID; var raceGoalId: RaceGoal.ID; var weekNumber: Int; var phase: TrainingPhase; var startDate: Date; var targetWeeklyKm: Double
  }
  @Table struct PlannedSession: Identifiable {
    let id: UUID; var weekId: TrainingWeek.ID; var dayOfWeek: Int; var sessionType: SessionType; var targetDistanceKm: Double?
    var targetDurationMin: Int?; var targetPaceZone: PaceZoneName?; var notes: String; var isIndoor: Bool
  }
  @Table struct CompletedWorkout: Identifiable {
    let id: UUID; var plannedSessionId: PlannedSession.ID?; var hkWorkoutId: String?; var completedAt: Date
    var actualDistanceKm: Double; var actualDurationSec: Double; var avgPaceSecPerKm: Double; var paceAchievementRatio: Double
  }
  @Table struct VDOTSnapshot: Identifiable {
    let id: UUID; var vdot: Double; var recordedAt: Date; var source: Source
    enum Source: String, QueryBindable { case initial, manual }
  }
  @Table struct WorkoutTemplate: Identifiable {
    let id: UUID; var name: String; var blocksData: String; var createdAt: Date; var updatedAt: Date
  }
  