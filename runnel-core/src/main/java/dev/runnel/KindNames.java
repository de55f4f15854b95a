package dev.runnel;

import java.util.Optional;

/** The kind an args type's {@link Kind} annotation names, for {@link JobArgs#kind()}. */
final class KindNames {
    /** Looked up once per class: {@link JobArgs#kind()} reads it on every insert of an annotated type. */
    private static final ClassValue<Optional<String>> ANNOTATED = new ClassValue<>() {
        @Override
        protected Optional<String> computeValue(Class<?> type) {
            return Optional.ofNullable(type.getAnnotation(Kind.class)).map(Kind::value);
        }
    };

    private KindNames() {}

    static Optional<String> annotated(Class<?> type) {
        return ANNOTATED.get(type);
    }
}
