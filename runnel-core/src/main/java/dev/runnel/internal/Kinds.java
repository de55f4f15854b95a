package dev.runnel.internal;

import dev.runnel.JobArgs;
import java.lang.reflect.Constructor;
import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.RecordComponent;

/**
 * Finds the kind name of an args type without an instance at hand: a record is built with every
 * component at its zero value and asked for {@link JobArgs#kind()}; other types need a no-argument
 * constructor.
 */
public final class Kinds {
    private Kinds() {}

    public static String kindOf(Class<? extends JobArgs> type) {
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
            // On the module path an application's package is closed to reflection unless opened: the
            // fix is in the application's module-info, and the same package must be open to Jackson.
            String pkg = type.getPackageName();
            throw new IllegalArgumentException("Runnel cannot reach " + type.getName() + ": module "
                    + type.getModule().getName() + " does not open package " + pkg + " to dev.runnel.core. Add"
                    + " `opens " + pkg + " to dev.runnel.core, com.fasterxml.jackson.databind;` to its"
                    + " module-info.java: Runnel builds a sample of each args type to read its kind, and Jackson"
                    + " writes and reads the args", e);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("cannot tell the kind of " + type.getName()
                    + " without an instance; register it with worker(kind, type, worker)", e);
        }
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
