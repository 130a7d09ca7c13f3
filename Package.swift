// swift-tools-version: 6.2
import PackageDescription

// Shared once for every target: strict concurrency is the language mode.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "parla",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "parla", targets: ["parla"]),
        .executable(name: "parla-purchase-bench", targets: ["ParlaPurchaseBench"]),
        .executable(name: "parla-fuzz-audio", targets: ["ParlaFuzzAudio"]),
        .executable(name: "parla-fuzz-picture", targets: ["ParlaFuzzPicture"]),
        // The apps' client of the API, generated from the same spec.
        .library(name: "ParlaClient", targets: ["ParlaClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: [.defaults, "CommandLineArguments"]),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // Traces over OTLP/HTTP only: the gRPC exporter would build gRPC too.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/jpsim/Yams.git", "5.4.0"..<"7.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
    ],
    targets: [
        // Value types, validation, localized messages, domain errors. No dependencies.
        .target(name: "ParlaCore", swiftSettings: swiftSettings),
        // The Corpora model, loader and validator, collation and paging. Pure.
        .target(
            name: "ParlaContent",
            dependencies: ["ParlaCore", .product(name: "Yams", package: "Yams")],
            swiftSettings: swiftSettings
        ),
        // The catalogue (products, prices, promotions, plans and their
        // features) and the entitlement rule: what an account may use now. Pure.
        .target(
            name: "ParlaCommerce",
            dependencies: ["ParlaCore", .product(name: "Yams", package: "Yams")],
            swiftSettings: swiftSettings
        ),
        // The teachers' dashboard's pages: Mustache templates, EFIGS words,
        // charts drawn as SVG. Rendering only; its routes are ParlaServer's.
        .target(
            name: "ParlaWeb",
            dependencies: ["ParlaCore", .product(name: "Mustache", package: "swift-mustache")],
            resources: [.copy("Templates")],
            swiftSettings: swiftSettings
        ),
        // Store receipts, verified: App Store signed transactions and
        // notifications (JWS, x5c chain), Google Play's Developer API.
        // Email: messages as RFC 5322 writes them, the letters Parla sends in
        // every language, and an SMTP submission client on SwiftNIO.
        .target(
            name: "ParlaMail",
            dependencies: [
                "ParlaCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Sign in with Apple, Google and Facebook: ID tokens verified against
        // the provider's JWKS (fetched over HTTPS and kept), and the web's
        // authorization-code sign-in.
        .target(
            name: "ParlaIdentity",
            dependencies: [
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Store purchases verified: the App Store's signed transactions and
        // notifications (JWS whose chain leads to Apple's root), Google
        // Play's purchases API (OAuth 2 with a service account's key).
        .target(
            name: "ParlaPurchases",
            dependencies: [
                "ParlaCore", "ParlaCommerce",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The learning model: ability, placement (2PL, SRT, EAP), proficiency
        // and gaps, FSRS-6 memory. Pure: no I/O, no frameworks.
        .target(name: "ParlaLearning", dependencies: ["ParlaCore"], swiftSettings: swiftSettings),
        // Teacher mode's questions and answer checking, from the content. Pure.
        .target(
            name: "ParlaTeaching", dependencies: ["ParlaCore", "ParlaContent", "ParlaLearning", "ParlaGames"], swiftSettings: swiftSettings),
        // Card matching: seeded deal, flip rules, log replay, scoring. Pure.
        .target(name: "ParlaGames", dependencies: ["ParlaCore", "ParlaLearning"], swiftSettings: swiftSettings),
        // The OpenAPI contract; types and the server protocol are generated at build time.
        .target(
            name: "ParlaAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")
            ],
            resources: [.copy("openapi.yaml")],
            // The generated files import with explicit access levels; the
            // resource accessor's plain import must then default to internal.
            swiftSettings: swiftSettings + [.enableUpcomingFeature("InternalImportsByDefault")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // The apps' client: ParlaAPI's spec (openapi.yaml links to it), its
        // types and a client generated public, over AsyncHTTPClient.
        .target(
            name: "ParlaClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // System libraries for speech, from Debian (scripts/install-deps.sh).
        .systemLibrary(name: "CPocketSphinx", pkgConfig: "pocketsphinx", providers: [.apt(["libpocketsphinx-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSampleRate", pkgConfig: "samplerate", providers: [.apt(["libsamplerate0-dev"])]),
        .systemLibrary(name: "CEspeakNG", providers: [.apt(["libespeak-ng-dev"])]),
        // Audio decoding, lexicon, decoders and phrase-repetition scoring.
        .target(
            name: "ParlaSpeech",
            dependencies: [
                "ParlaCore", "CPocketSphinx", "CSndFile", "CSampleRate", "CEspeakNG",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // PostgreSQL itself: the pool and its outages, the migrations, the
        // embedded cluster, backups, and the cipher of personal fields.
        .target(
            name: "ParlaDatabase",
            dependencies: [
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // Its pool's errors: the circuit breaker's is an outage.
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            resources: [.copy("Migrations")],
            swiftSettings: swiftSettings
        ),
        // The SQL of what learners learn: lessons and their answers, the
        // model each answer teaches (memory, abilities, item difficulty),
        // placement, speech attempts and their queue.
        .target(
            name: "ParlaLearningStore",
            dependencies: [
                "ParlaDatabase", "ParlaCore", "ParlaLearning", "ParlaTeaching",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The SQL of each other part of the product, a store per table family.
        .target(
            name: "ParlaStore",
            dependencies: [
                "ParlaDatabase", "ParlaCore", "ParlaContent", "ParlaLearning", "ParlaLearningStore", "ParlaCommerce", "ParlaTeaching",
                "ParlaGames",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // What a server keeps in memory, in step with the tables by their
        // notifications: the change feed, the read models, the access rules
        // that read them, and the registry of all of it (Kept.swift).
        .target(
            name: "ParlaKept",
            dependencies: [
                "ParlaCore", "ParlaDatabase", "ParlaStore", "ParlaCommerce", "ParlaTeaching", "ParlaGames",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the API and the dashboard do, below both: services that
        // orchestrate the rules and the stores, content and its assets, mail
        // and the speech queue. Nothing here knows HTTP.
        .target(
            name: "ParlaServices",
            dependencies: [
                "ParlaCore", "ParlaDatabase", "ParlaStore", "ParlaLearningStore", "ParlaKept", "ParlaContent", "ParlaSpeech",
                "ParlaLearning",
                "ParlaTeaching",
                "ParlaGames", "ParlaCommerce", "ParlaPurchases", "ParlaMail", "ParlaIdentity",
                .product(name: "Yams", package: "Yams"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            resources: [.copy("Resources/DefaultPictures")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ParlaServer",
            dependencies: [
                "ParlaCore", "ParlaAPI", "ParlaDatabase", "ParlaStore", "ParlaLearningStore", "ParlaKept", "ParlaServices", "ParlaContent",
                "ParlaSpeech",
                "ParlaLearning", "ParlaTeaching",
                "ParlaGames", "ParlaCommerce", "ParlaPurchases", "ParlaWeb", "ParlaMail", "ParlaIdentity",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the command line runs besides the server: content import,
        // backups, the speech worker, migrations, support's tools.
        .target(
            name: "ParlaOperations",
            dependencies: [
                "ParlaServer", "ParlaServices", "ParlaDatabase", "ParlaStore", "ParlaLearningStore", "ParlaKept", "ParlaCore",
                "ParlaSpeech", "ParlaCommerce",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "parla",
            dependencies: [
                "ParlaOperations", "ParlaServer", "ParlaServices", "ParlaDatabase", "ParlaStore", "ParlaLearningStore", "ParlaKept",
                "ParlaCore",
                "ParlaSpeech",
                "ParlaLearning", "ParlaCommerce",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // `make bench`: App Store signed transactions verified, one core.
        .executableTarget(
            name: "ParlaPurchaseBench",
            dependencies: ["ParlaPurchases", "ParlaCommerce", "ParlaTestSupport"],
            swiftSettings: swiftSettings
        ),
        // `make fuzz-decoders`: libFuzzer targets for the untrusted bytes we
        // decode (scripts/fuzz-decoders.sh builds them with -DFUZZING, and
        // CLibFuzzer declares libFuzzer's driver). Otherwise each replays
        // the files it is given; the regression tests call the same
        // function the fuzzer does.
        .target(name: "CLibFuzzer"),
        .target(name: "ParlaFuzzTarget", dependencies: ["CLibFuzzer"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "ParlaFuzzAudio", dependencies: ["ParlaSpeech", "ParlaCore", "ParlaFuzzTarget"], swiftSettings: swiftSettings),
        .executableTarget(name: "ParlaFuzzPicture", dependencies: ["ParlaCore", "ParlaFuzzTarget"], swiftSettings: swiftSettings),
        .target(
            name: "ParlaTestSupport",
            dependencies: [
                "ParlaServer", "ParlaDatabase", "ParlaStore", "ParlaIdentity",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ParlaCoreTests", dependencies: ["ParlaCore", "ParlaTestSupport", "ParlaFuzzPicture"], swiftSettings: swiftSettings),
        .testTarget(name: "ParlaWebTests", dependencies: ["ParlaWeb", "ParlaCore"], swiftSettings: swiftSettings),
        // README.md's tour, walked with ParlaClient against a live server.
        .testTarget(name: "ParlaClientTests", dependencies: ["ParlaClient", "ParlaTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "ParlaMailTests", dependencies: ["ParlaMail", "ParlaCore", "ParlaTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "ParlaCommerceTests", dependencies: ["ParlaCommerce", "ParlaCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ParlaPurchasesTests",
            dependencies: [
                "ParlaPurchases", "ParlaCommerce", "ParlaCore", "ParlaTestSupport",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "ParlaContentTests", dependencies: ["ParlaContent", "ParlaCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ParlaSpeechTests", dependencies: ["ParlaSpeech", "ParlaCore", "ParlaTestSupport", "ParlaFuzzAudio"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ParlaStoreTests",
            dependencies: [
                "ParlaDatabase", "ParlaStore", "ParlaLearningStore", "ParlaKept", "ParlaLearning",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ParlaLearningTests",
            dependencies: ["ParlaLearning", "ParlaCore"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ParlaGamesTests",
            dependencies: ["ParlaGames", "ParlaCore", "ParlaLearning"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ParlaTeachingTests",
            dependencies: ["ParlaTeaching", "ParlaContent", "ParlaCore", "ParlaLearning", "ParlaGames"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ParlaServerTests",
            dependencies: [
                "ParlaServer", "ParlaOperations", "ParlaServices", "ParlaAPI", "ParlaDatabase", "ParlaStore", "ParlaLearningStore",
                "ParlaKept",
                "ParlaTestSupport",
                "ParlaCore",
                "ParlaContent",
                "ParlaSpeech",
                "ParlaLearning", "ParlaCommerce", "ParlaPurchases", "ParlaMail", "ParlaIdentity", "ParlaGames", "ParlaWeb",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
