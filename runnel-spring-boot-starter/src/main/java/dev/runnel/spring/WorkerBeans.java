package dev.runnel.spring;

import dev.runnel.JobArgs;
import dev.runnel.Worker;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.ResolvableType;

/**
 * The application's {@link Worker} beans, each with the args type it works: read from the type
 * argument of its class ({@code implements Worker<SendReceipt>}) or of its {@code @Bean} method's
 * return type ({@code Worker<SendReceipt>}, for a lambda).
 */
final class WorkerBeans {
    private WorkerBeans() {}

    /** A worker bean and the args type it is registered for. */
    record Entry(String beanName, Class<? extends JobArgs> argsType, Worker<?> worker) {}

    static Map<String, Entry> find(ConfigurableListableBeanFactory beans) {
        Map<String, Entry> found = new LinkedHashMap<>();
        for (String name : beans.getBeanNamesForType(Worker.class)) {
            Worker<?> worker = beans.getBean(name, Worker.class);
            found.put(name, new Entry(name, argsType(beans, name, worker), worker));
        }
        return found;
    }

    private static Class<? extends JobArgs> argsType(ConfigurableListableBeanFactory beans, String name, Worker<?> worker) {
        Class<?> type = ResolvableType.forClass(AopUtils.getTargetClass(worker)).as(Worker.class).resolveGeneric(0);
        // An unresolvable type variable resolves to its bound, JobArgs: as good as unknown.
        if ((type == null || type == JobArgs.class) && beans.containsBeanDefinition(name)) {
            // A lambda's class has no type arguments: read them from its @Bean method's return type.
            BeanDefinition definition = beans.getMergedBeanDefinition(name);
            Method factory = definition instanceof RootBeanDefinition root ? root.getResolvedFactoryMethod() : null;
            ResolvableType declared = factory != null ? ResolvableType.forMethodReturnType(factory)
                    : definition.getResolvableType();
            type = declared.as(Worker.class).resolveGeneric(0);
        }
        if (type == null || type == JobArgs.class || !JobArgs.class.isAssignableFrom(type)) {
            throw new IllegalStateException("cannot tell which args type worker bean '" + name + "' works: let its class"
                    + " implement Worker<YourArgs>, or its @Bean method return Worker<YourArgs>");
        }
        return type.asSubclass(JobArgs.class);
    }
}
