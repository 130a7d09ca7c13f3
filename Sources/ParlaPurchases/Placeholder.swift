import ParlaCore
