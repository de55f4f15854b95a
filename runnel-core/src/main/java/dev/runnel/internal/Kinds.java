package dev.runnel.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.JobArgs;
import dev.runnel.Kind;
import java.lang.reflect.Constructor;
import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Optional;

/**
 * Finds the kind name of an args type without an instance at hand: its {@link Kind} annotation, or
 * else a sample built with every record component at its zero value (other types need a
 * no-argument constructor) and asked for {@link JobArgs#kind()}.
 */
public final class Kinds {
    private Kinds() {}

    /** The kind named by the type's {@link Kind} annotation, if it has one (read once per worker registered). */
    private static Optional<String> annotated(Class<?> type) {
        return Optional.ofNullable(type.getAnnotation(Kind.class)).map(Kind::value);
    }

    public static String kindOf(Class<? extends JobArgs> type) {
        Optional<String> annotated = annotated(type);
        if (annotated.isPresent()) {
            // Nothing here needs reflection then, but Jackson will at the first insert: say so now.
            if (!type.getModule().isOpen(type.getPackageName(), ObjectMapper.class.getModule())) {
                throw notOpened(type, null);
            }
            return annotated.get();
        }
        try {
            JobArgs sample;
            if (type.isRecord()) {
                RecordComponent[] components = type.getRecordComponents();
                Class<?>[] types = new Class<?>[components.length];
                Object[] values = new Object[components.length];
                for (int i = 0; i < components.length; i++) {
                    types[i] = components[i].getType();
                    values[i] = zero(types[i]);
                }
                Constructor<? extends JobArgs> canonical = type.getDeclaredConstructor(types);
                canonical.setAccessible(true);
                sample = canonical.newInstance(values);
            } else {
                Constructor<? extends JobArgs> empty = type.getDeclaredConstructor();
                empty.setAccessible(true);
                sample = empty.newInstance();
            }
            return sample.kind();
        } catch (InaccessibleObjectException e) {
            throw notOpened(type, e);
        } catch (ReflectiveOperationException | RuntimeException e) {
            Throwable cause = e instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : e;
            throw new IllegalArgumentException("cannot tell the kind of " + type.getName()
                    + ": building a sample with null and zero fields to call kind() failed (" + cause
                    + "); annotate the type with @Kind(\"...\"), or register it with worker(kind, type, worker)", e);
        }
    }

    /**
     * On the module path an application's package is closed to reflection unless opened: the fix is
     * in the application's module-info, and the same package must be open to Jackson.
     */
    private static IllegalArgumentException notOpened(Class<?> type, RuntimeException cause) {
        String pkg = type.getPackageName();
        return new IllegalArgumentException("Runnel cannot reach " + type.getName() + ": module "
                + type.getModule().getName() + " does not open package " + pkg + " to dev.runnel.core. Add"
                + " `opens " + pkg + " to dev.runnel.core, com.fasterxml.jackson.databind;` to its"
                + " module-info.java: Runnel builds a sample of an args type without @Kind to read its kind,"
                + " and Jackson writes and reads the args", cause);
    }

    private static Object zero(Class<?> type) {
        if (!type.isPrimitive()) {
            return null;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == char.class) {
            return '\0';
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == float.class) {
            return 0f;
        }
        if (type == double.class) {
            return 0d;
        }
        if (type == byte.class) {
            return (byte) 0;
        }
        if (type == short.class) {
            return (short) 0;
        }
        return 0;
    }
}
